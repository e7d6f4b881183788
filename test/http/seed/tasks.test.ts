import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { testApp } from '../../helpers/app.js'
import { sendBody, textMessage } from '../../helpers/bodies.js'
import { askSkill, slowSkill } from '../../helpers/skills.js'
import { echoSkill } from '../../../src/skills/echo/index.js'

describe('GET /tasks/:id', () => {
  let app: FastifyInstance
  afterEach(() => app.close())

  it('returns the task as /tasks/send answered it', async () => {
    app = await testApp({ BUNDLED_SKILLS: 'echo' })
    const body = sendBody('hello')
    const sent = (await app.inject({ method: 'POST', url: '/tasks/send', payload: body })).json()
    const response = await app.inject(`/tasks/${body.id}`)
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual(sent)
  })

  it('adds the last historyLength messages', async () => {
    app = await testApp({ BUNDLED_SKILLS: 'echo' })
    const body = sendBody('hello')
    await app.inject({ method: 'POST', url: '/tasks/send', payload: body })
    const task = (await app.inject(`/tasks/${body.id}?historyLength=1`)).json()
    expect(task.history).toEqual([{ role: 'agent', parts: [{ type: 'text', text: 'hello' }] }])
  })

  it('answers 404 for an unknown task', async () => {
    app = await testApp()
    const id = randomUUID()
    const response = await app.inject(`/tasks/${id}`)
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({
      error: {
        code: 'TASK_NOT_FOUND',
        message: `Task ${id} not found`,
        taskId: id,
        requestId: expect.any(String),
      },
    })
  })

  it('answers 400 naming the field for an id that is not a UUID', async () => {
    app = await testApp()
    const response = await app.inject('/tasks/not-a-uuid')
    expect(response.statusCode).toBe(400)
    expect(response.json().error).toMatchObject({ code: 'INVALID_REQUEST', field: 'path.id' })
  })

  it('answers 400 for a historyLength that is not a count', async () => {
    app = await testApp()
    const response = await app.inject(`/tasks/${randomUUID()}?historyLength=-1`)
    expect(response.statusCode).toBe(400)
    expect(response.json().error).toMatchObject({
      code: 'INVALID_REQUEST',
      field: 'query.historyLength',
      message: 'query.historyLength: must be from 0 to 1000',
    })
    for (const [query, problem] of [
      ['historyLength=1&historyLength=2', 'is given more than once; give it once'],
      ['historyLength=', 'must be a number'],
    ]) {
      const bad = await app.inject(`/tasks/${randomUUID()}?${query}`)
      expect(bad.json().error.message).toBe(`query.historyLength: ${problem}`)
    }
  })
})

describe('POST /tasks/:id/cancel', () => {
  let app: FastifyInstance
  afterEach(() => app.close())

  it('cancels a running task and aborts its skill', async () => {
    let aborted = false
    const slow = slowSkill()
    const watched = {
      ...slow,
      async execute(ctx: Parameters<typeof slow.execute>[0]) {
        ctx.signal.addEventListener('abort', () => (aborted = true))
        return slow.execute(ctx)
      },
    }
    app = await testApp({ SEND_WAIT_MS: '0' }, { skills: [watched] })
    const body = sendBody('long job')
    await app.inject({ method: 'POST', url: '/tasks/send', payload: body })
    const response = await app.inject({ method: 'POST', url: `/tasks/${body.id}/cancel` })
    expect(response.statusCode).toBe(200)
    expect(response.json().status.state).toBe('canceled')
    expect(aborted).toBe(true)
    const later = (await app.inject(`/tasks/${body.id}`)).json()
    expect(later.status.state).toBe('canceled')
  })

  it('cancels when the request says application/json but carries no body', async () => {
    app = await testApp({ SEND_WAIT_MS: '0' }, { skills: [slowSkill()] })
    const body = sendBody('long job')
    await app.inject({ method: 'POST', url: '/tasks/send', payload: body })
    const response = await app.inject({
      method: 'POST',
      url: `/tasks/${body.id}/cancel`,
      headers: { 'content-type': 'application/json' },
    })
    expect(response.statusCode).toBe(200)
    expect(response.json().status.state).toBe('canceled')
    // A route that takes a body still refuses an empty one.
    const send = await app.inject({
      method: 'POST',
      url: `/tasks/${body.id}/send`,
      headers: { 'content-type': 'application/json' },
    })
    expect(send.statusCode).toBe(400)
    expect(send.json().error.message).toBe('the request body is empty; send a JSON object')
  })

  it('answers 400 naming the state of a task that has ended', async () => {
    app = await testApp({ BUNDLED_SKILLS: 'echo' })
    const body = sendBody('done quickly')
    await app.inject({ method: 'POST', url: '/tasks/send', payload: body })
    const response = await app.inject({ method: 'POST', url: `/tasks/${body.id}/cancel` })
    expect(response.statusCode).toBe(400)
    expect(response.json().error).toEqual({
      code: 'TASK_NOT_CANCELABLE',
      message: `Task ${body.id} is completed and cannot be canceled`,
      taskId: body.id,
      state: 'completed',
      requestId: expect.any(String),
    })
  })

  it('answers 404 for an unknown task', async () => {
    app = await testApp()
    const response = await app.inject({ method: 'POST', url: `/tasks/${randomUUID()}/cancel` })
    expect(response.statusCode).toBe(404)
  })
})

describe('POST /tasks/:id/send (continue a multi-turn task)', () => {
  let app: FastifyInstance
  afterEach(() => app.close())

  it('continues an input-required task to completion', async () => {
    app = await testApp({}, { skills: [askSkill] })
    const body = sendBody('paint the fence')
    const first = (await app.inject({ method: 'POST', url: '/tasks/send', payload: body })).json()
    expect(first.status.state).toBe('input-required')
    const response = await app.inject({
      method: 'POST',
      url: `/tasks/${body.id}/send`,
      payload: { message: textMessage('green'), historyLength: 10 },
    })
    expect(response.statusCode).toBe(200)
    const task = response.json()
    expect(task.status.state).toBe('completed')
    expect(task.artifacts[0].parts).toEqual([{ type: 'text', text: 'colour: green' }])
    expect(task.history.map((m: { role: string }) => m.role)).toEqual(['user', 'agent', 'user'])
  })

  it('answers a retried continuation with the task, and a new message with 409', async () => {
    app = await testApp({}, { skills: [askSkill] })
    const body = sendBody('paint the fence')
    await app.inject({ method: 'POST', url: '/tasks/send', payload: body })
    const continuation = { message: textMessage('green') }
    const send = (payload: object) =>
      app.inject({ method: 'POST', url: `/tasks/${body.id}/send`, payload })
    const first = await send(continuation)
    const retry = await send(continuation)
    expect(retry.statusCode).toBe(200)
    expect(retry.json()).toEqual(first.json())
    const other = await send({ message: textMessage('blue') })
    expect(other.statusCode).toBe(409)
    expect(other.json().error).toMatchObject({ code: 'INVALID_TASK_STATE', state: 'completed' })
    // The message that created the task is no continuation to retry.
    expect((await send({ message: textMessage('paint the fence') })).statusCode).toBe(409)
  })

  it('answers 409 naming the state when the task is not waiting for input', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const body = sendBody('hi')
    await app.inject({ method: 'POST', url: '/tasks/send', payload: body })
    const response = await app.inject({
      method: 'POST',
      url: `/tasks/${body.id}/send`,
      payload: { message: textMessage('more') },
    })
    expect(response.statusCode).toBe(409)
    expect(response.json().error).toMatchObject({
      code: 'INVALID_TASK_STATE',
      state: 'completed',
      message: `Task ${body.id} is completed; it accepts a message only when input-required`,
    })
  })

  it('answers 400 when the body names another task', async () => {
    app = await testApp({}, { skills: [askSkill] })
    const body = sendBody('x')
    await app.inject({ method: 'POST', url: '/tasks/send', payload: body })
    const response = await app.inject({
      method: 'POST',
      url: `/tasks/${body.id}/send`,
      payload: { id: randomUUID(), message: textMessage('y') },
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().error).toMatchObject({ code: 'INVALID_REQUEST', field: 'id' })
  })

  it('answers 404 for an unknown task', async () => {
    app = await testApp()
    const response = await app.inject({
      method: 'POST',
      url: `/tasks/${randomUUID()}/send`,
      payload: { message: textMessage('hello?') },
    })
    expect(response.statusCode).toBe(404)
  })
})
