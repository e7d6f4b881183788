/**
 * JSON-RPC 1.0 params in the forms ProtoJSON parsers read (spec §11: integer enums, int32 as
 * text, null as unset), and the errors for values that are still wrong.
 */
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { echoSkill } from '../../../src/skills/echo/index.js'
import { testApp } from '../../helpers/app.js'
import { rpc, v10Message } from '../../helpers/jsonrpc.js'

describe('JSON-RPC 1.0: ProtoJSON value forms (§11)', () => {
  let app: FastifyInstance
  afterEach(() => app.close())

  /** A completed echo task with two messages in its history. */
  async function completedTask(contextId = 'ctx-proto') {
    const sent = await rpc(app, 'SendMessage', { message: v10Message('hi', { contextId }) })
    return sent.body.result.task as { id: string }
  }

  it('reads a role given by its number (1 = ROLE_USER)', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const { body } = await rpc(app, 'SendMessage', {
      message: v10Message('by number', { role: 1 }),
    })
    expect(body.result.task).toMatchObject({
      status: { state: 'TASK_STATE_COMPLETED' },
      history: [{ role: 'ROLE_USER', parts: [{ text: 'by number' }] }, { role: 'ROLE_AGENT' }],
    })
  })

  it('reads a ListTasks status given by its number (3 = TASK_STATE_COMPLETED)', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const { id } = await completedTask()
    const completed = await rpc(app, 'ListTasks', { contextId: 'ctx-proto', status: 3 })
    expect(completed.body.result.tasks).toMatchObject([{ id }])
    const working = await rpc(app, 'ListTasks', { contextId: 'ctx-proto', status: 2 })
    expect(working.body.result).toMatchObject({ tasks: [], totalSize: 0 })
  })

  it('reads pageSize and historyLength written as decimal text', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const { id } = await completedTask()
    const listed = await rpc(app, 'ListTasks', { pageSize: '5', historyLength: '1' })
    expect(listed.body.result).toMatchObject({ pageSize: 5, totalSize: 1 })
    expect(listed.body.result.tasks[0].history).toHaveLength(1)
    const got = await rpc(app, 'GetTask', { id, historyLength: '2' })
    expect(got.body.result.history).toHaveLength(2)
  })

  it('reads null as a field left unset', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const { id } = await completedTask()
    const got = await rpc(app, 'GetTask', { id, historyLength: null, tenant: null })
    expect(got.body.result.history).toHaveLength(2)
    const listed = await rpc(app, 'ListTasks', { status: null, pageSize: null, pageToken: null })
    expect(listed.body.result).toMatchObject({ pageSize: 50, totalSize: 1 })
    const message = v10Message('nulls', { contextId: null, taskId: null, metadata: null })
    const sent = await rpc(app, 'SendMessage', {
      message,
      configuration: { taskPushNotificationConfig: null, historyLength: null },
      metadata: null,
    })
    expect(sent.body.result.task).toMatchObject({
      contextId: expect.any(String),
      status: { state: 'TASK_STATE_COMPLETED' },
    })
    expect(sent.body.result.task.history).toHaveLength(2)
  })

  it('still names the field of a value that is wrong in every form (-32602)', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const error = async (method: string, params: object) =>
      (await rpc(app, method, params)).body.error
    expect(await error('SendMessage', { message: v10Message('x', { role: 2 }) })).toMatchObject({
      code: -32602,
      message: 'message.role: a caller sends messages with role ROLE_USER (got "ROLE_AGENT")',
    })
    expect((await error('ListTasks', { status: 9 })).message).toMatch(
      /^status: must be one of "TASK_STATE_UNSPECIFIED", /,
    )
    expect((await error('ListTasks', { pageSize: 'five' })).message).toBe(
      'pageSize: must be a number',
    )
    expect((await error('ListTasks', { pageSize: '0' })).message).toBe(
      'pageSize: must be from 1 to 100',
    )
    expect((await error('GetTask', { id: 'x', historyLength: '1.5' })).message).toBe(
      'historyLength: must be a whole number',
    )
    expect((await error('GetTask', { id: 'x', historyLength: 2 ** 31 })).message).toBe(
      'historyLength: must be at most 2147483647',
    )
    expect((await error('GetTask', { id: null })).message).toBe('id: is required')
  })
})
