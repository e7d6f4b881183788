/** The JSON-RPC endpoint in A2A 0.3 (no `A2A-Version`): kind-tagged objects, bare results. */
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { echoSkill } from '../../../src/skills/echo/index.js'
import { testApp } from '../../helpers/app.js'
import { rpc, v03Message } from '../../helpers/jsonrpc.js'
import { askSkill, slowSkill } from '../../helpers/skills.js'

const v03 = { version: null }

describe('JSON-RPC 0.3', () => {
  let app: FastifyInstance
  afterEach(() => app.close())

  it('message/send answers with the bare task, kind "task", lowercase states', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const { body } = await rpc(app, 'message/send', { message: v03Message('hello v03') }, v03)
    expect(body.result).toMatchObject({
      kind: 'task',
      status: {
        state: 'completed',
        message: { kind: 'message', role: 'agent', parts: [{ kind: 'text', text: 'hello v03' }] },
      },
      artifacts: [{ name: 'echo', parts: [{ kind: 'text', text: 'hello v03' }] }],
    })
  })

  it('message/send with blocking: false returns before the task ends', async () => {
    app = await testApp({}, { skills: [slowSkill(60_000)] })
    const { body } = await rpc(
      app,
      'message/send',
      { message: v03Message('slow'), configuration: { blocking: false } },
      v03,
    )
    expect(body.result.status.state).toMatch(/^(submitted|working)$/)
  })

  it('continues a task through tasks/get and a second message/send', async () => {
    app = await testApp({}, { skills: [askSkill] })
    const first = await rpc(app, 'message/send', { message: v03Message('paint') }, v03)
    const { id, contextId } = first.body.result
    expect(first.body.result.status.state).toBe('input-required')
    await rpc(app, 'message/send', { message: v03Message('red', { taskId: id, contextId }) }, v03)
    const { body } = await rpc(app, 'tasks/get', { id, historyLength: 2 }, v03)
    expect(body.result).toMatchObject({ id, status: { state: 'completed' } })
    expect(body.result.history).toHaveLength(2)
    // 0 is none, on a read and on a send alike.
    const none = await rpc(app, 'tasks/get', { id, historyLength: 0 }, v03)
    expect(none.body.result).toMatchObject({ id, status: { state: 'completed' } })
    expect(none.body.result).not.toHaveProperty('history')
    const sent = await rpc(
      app,
      'message/send',
      { message: v03Message('blue'), configuration: { historyLength: 0 } },
      v03,
    )
    expect(sent.body.result.status.state).toBe('input-required')
    expect(sent.body.result).not.toHaveProperty('history')
  })

  it('tasks/cancel cancels; errors carry 0.3 codes with a plain data object', async () => {
    app = await testApp({}, { skills: [slowSkill(60_000)] })
    const sent = await rpc(
      app,
      'message/send',
      { message: v03Message('slow'), configuration: { blocking: false } },
      v03,
    )
    const { id } = sent.body.result
    const canceled = await rpc(app, 'tasks/cancel', { id }, v03)
    expect(canceled.body.result.status.state).toBe('canceled')
    const again = await rpc(app, 'tasks/cancel', { id }, v03)
    expect(again.body.error).toEqual({
      code: -32002,
      message: `Task ${id} is canceled and cannot be canceled`,
      data: { taskId: id, state: 'canceled' },
    })
    const missing = await rpc(app, 'tasks/get', { id: 'nope' }, v03)
    expect(missing.body.error).toMatchObject({ code: -32001, data: { taskId: 'nope' } })
  })

  it('tells a field of the wrong type from a missing one (-32602)', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const got = await rpc(app, 'tasks/get', { id: 5 }, v03)
    expect(got.body.error).toMatchObject({ code: -32602, message: 'id: must be a string' })
    const missing = await rpc(app, 'tasks/cancel', {}, v03)
    expect(missing.body.error).toMatchObject({ code: -32602, message: 'id: is required' })
    const message = { ...v03Message('x'), parts: 'x' }
    const sent = await rpc(app, 'message/send', { message }, v03)
    expect(sent.body.error).toMatchObject({ message: 'message.parts: must be an array' })
    const negative = await rpc(app, 'tasks/get', { id: 'x', historyLength: -1 }, v03)
    expect(negative.body.error).toMatchObject({
      code: -32602,
      message: 'historyLength: must be 0 or more',
    })
  })

  it('push configuration methods answer -32003; the extended card is the 0.3 card', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const push = await rpc(app, 'tasks/pushNotificationConfig/set', { taskId: 't' }, v03)
    expect(push.body.error.code).toBe(-32003)
    const card = await rpc(app, 'agent/getAuthenticatedExtendedCard', {}, v03)
    expect(card.body.result).toMatchObject({
      protocolVersion: '0.3.0',
      supportsAuthenticatedExtendedCard: true,
      skills: [{ id: 'echo' }],
    })
  })

  it('does not know 0.3 method names under A2A-Version 1.0', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const { body } = await rpc(app, 'tasks/get', { id: 'x' })
    expect(body.error).toMatchObject({ code: -32601 })
  })
})
