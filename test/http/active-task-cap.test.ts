/** MAX_ACTIVE_TASKS_PER_CALLER as a user meets it, in each dialect. */
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { echoSkill } from '../../src/skills/echo/index.js'
import { testApp } from '../helpers/app.js'
import { sendBody } from '../helpers/bodies.js'
import { rpc, v10Message } from '../helpers/jsonrpc.js'
import { askSkill, slowSkill } from '../helpers/skills.js'

describe('the cap on a caller’s open tasks', () => {
  let app: FastifyInstance
  afterEach(() => app.close())

  const capped = (limit: number) =>
    testApp(
      { MAX_ACTIVE_TASKS_PER_CALLER: String(limit), SEND_WAIT_MS: '0', DEFAULT_SKILL: 'slow' },
      { skills: [slowSkill(), askSkill, echoSkill] },
    )
  const send = (body: object) => app.inject({ method: 'POST', url: '/tasks/send', payload: body })
  const answer = (taskId: string, text: string) =>
    app.inject({
      method: 'POST',
      url: `/tasks/${taskId}/send`,
      payload: { message: { role: 'user', parts: [{ type: 'text', text }] } },
    })
  const stateOf = async (taskId: string) =>
    (await app.inject(`/tasks/${taskId}`)).json().status.state
  /** Sends the `ask` skill's task and waits for its question (SEND_WAIT_MS is 0). */
  async function askAndWait() {
    const ask = sendBody('colour?', { metadata: { skillId: 'ask' } })
    expect((await send(ask)).statusCode).toBe(200)
    await expect.poll(() => stateOf(ask.id)).toBe('input-required')
    return ask
  }

  it('refuses a send past the cap with 429, writing nothing, and admits one again after a cancel', async () => {
    app = await capped(2)
    const [first, second, third] = [sendBody('1'), sendBody('2'), sendBody('3')]
    expect((await send(first)).statusCode).toBe(200)
    expect((await send(second)).statusCode).toBe(200)

    const refused = await send(third)
    expect(refused.statusCode).toBe(429)
    expect(refused.headers['retry-after']).toBe('1')
    expect(refused.json()).toEqual({
      error: {
        code: 'ACTIVE_TASK_LIMIT',
        message:
          'You already have 2 open tasks (running, or waiting for your answer), the most this agent holds at once for one caller; answer or cancel one, or retry once one has ended',
        limit: 2,
        retryAfterSeconds: 1,
        requestId: expect.any(String),
      },
    })
    expect((await app.inject(`/tasks/${third.id}`)).statusCode).toBe(404)

    // A retry of a running task is the same task, not another one.
    expect((await send(first)).statusCode).toBe(200)

    await app.inject({ method: 'POST', url: `/tasks/${first.id}/cancel` })
    expect((await send(third)).statusCode).toBe(200)
  })

  it('frees a slot when a task completes', async () => {
    app = await capped(1)
    for (let n = 0; n < 3; n++) {
      const echo = sendBody(`echo ${n}`, { metadata: { skillId: 'echo' } })
      expect((await send(echo)).statusCode).toBe(200)
      await expect
        .poll(async () => (await app.inject(`/tasks/${echo.id}`)).json().status.state)
        .toBe('completed')
    }
  })

  it('holds a slot while a task waits for its caller, and frees it when the task ends', async () => {
    app = await capped(1)
    const ask = await askAndWait()
    // Waiting tasks would otherwise let one caller fill the store and shut the others out.
    const echo = sendBody('echo', { metadata: { skillId: 'echo' } })
    expect((await send(echo)).statusCode).toBe(429)
    // Retrying the waiting task's send finds it, and it still holds the slot.
    expect((await send(ask)).statusCode).toBe(200)
    expect((await send(echo)).statusCode).toBe(429)

    // The caller's own answer goes through, as the task holds its slot; the task then completes.
    expect((await answer(ask.id, 'blue')).statusCode).toBe(200)
    await expect.poll(() => stateOf(ask.id)).toBe('completed')
    expect((await send(echo)).statusCode).toBe(200)
  })

  it('frees the slot of a waiting task that is canceled', async () => {
    app = await capped(1)
    const ask = await askAndWait()
    await app.inject({ method: 'POST', url: `/tasks/${ask.id}/cancel` })
    expect((await send(sendBody('echo', { metadata: { skillId: 'echo' } }))).statusCode).toBe(200)
  })

  it('keeps a running task’s slot when a message for it is refused', async () => {
    app = await capped(1)
    const running = sendBody('1')
    expect((await send(running)).statusCode).toBe(200)
    expect((await answer(running.id, 'more')).statusCode).toBe(409)
    expect((await send(sendBody('2'))).statusCode).toBe(429)
  })

  it('answers A2A 1.0 JSON-RPC with its error object', async () => {
    app = await capped(1)
    expect((await send(sendBody('1'))).statusCode).toBe(200)
    const { body } = await rpc(app, 'SendMessage', {
      message: v10Message('2'),
      configuration: { returnImmediately: true },
    })
    expect(body.error).toMatchObject({
      code: -32029,
      message: expect.stringContaining('You already have 1 open task (running,'),
      data: [
        expect.objectContaining({ reason: 'ACTIVE_TASK_LIMIT' }),
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1s' },
      ],
    })
  })
})
