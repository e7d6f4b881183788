/** One engine under every dialect: a task made in one is visible, in its own shape, in another. */
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { echoSkill } from '../../src/skills/echo/index.js'
import { testApp } from '../helpers/app.js'
import { sendBody } from '../helpers/bodies.js'
import { rpc, v10Message } from '../helpers/jsonrpc.js'

describe('the same task through the brief’s dialect and A2A 1.0 / 0.3', () => {
  let app: FastifyInstance
  afterEach(() => app.close())

  it('a task sent with POST /tasks/send is read by GetTask (1.0) and tasks/get (0.3)', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const body = sendBody('from the brief', { sessionId: 'session-7' })
    await app.inject({ method: 'POST', url: '/tasks/send', payload: body })
    const v10 = await rpc(app, 'GetTask', { id: body.id })
    expect(v10.body.result).toMatchObject({
      id: body.id,
      contextId: 'session-7',
      status: { state: 'TASK_STATE_COMPLETED' },
      artifacts: [{ parts: [{ text: 'from the brief' }] }],
    })
    const v03 = await rpc(app, 'tasks/get', { id: body.id }, { version: null })
    expect(v03.body.result).toMatchObject({
      kind: 'task',
      id: body.id,
      status: { state: 'completed' },
    })
  })

  it('a task sent with SendMessage is read by GET /tasks/:id in the brief’s shape', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const sent = await rpc(app, 'SendMessage', { message: v10Message('from 1.0') })
    const { id, contextId } = sent.body.result.task
    const response = await app.inject({ method: 'GET', url: `/tasks/${id}?historyLength=1` })
    expect(response.json()).toMatchObject({
      id,
      sessionId: contextId,
      status: {
        state: 'completed',
        message: { role: 'agent', parts: [{ type: 'text', text: 'from 1.0' }] },
      },
      artifacts: [{ index: 0, parts: [{ type: 'text', text: 'from 1.0' }] }],
    })
  })
})
