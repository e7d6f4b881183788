/** The A2A 1.0 HTTP+JSON binding under /a2a/rest, with and without a tenant prefix (§11). */
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { echoSkill } from '../../../src/skills/echo/index.js'
import { listening, testApp } from '../../helpers/app.js'
import { authHeaders, bearer } from '../../helpers/auth.js'
import { v10Message } from '../../helpers/jsonrpc.js'
import { askSkill, slowSkill } from '../../helpers/skills.js'
import { readAll } from '../../helpers/sse.js'

const REST = '/a2a/rest'
const headers = { 'content-type': 'application/json', 'a2a-version': '1.0', ...authHeaders() }

describe('HTTP+JSON binding', () => {
  let app: FastifyInstance
  afterEach(() => app.close())

  const send = (body: unknown, prefix = REST) =>
    app.inject({ method: 'POST', url: `${prefix}/message:send`, headers, payload: body as object })

  it('POST /message:send answers {task} as application/json', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const response = await send({ message: v10Message('hello rest') })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(response.json().task).toMatchObject({
      status: { state: 'TASK_STATE_COMPLETED' },
      artifacts: [{ parts: [{ text: 'hello rest' }] }],
    })
  })

  it('says in plain words what is wrong with the body or one of its fields (400)', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const message = async (body: unknown) => (await send(body)).json().error.message
    expect(await message([1])).toBe('the request body must be a JSON object')
    expect(await message({})).toBe('message: is required')
    const parts = [{ text: 5 }]
    expect(await message({ message: { ...v10Message('x'), parts } })).toBe(
      'message.parts[0].text: must be a string',
    )
    const configuration = { returnImmediately: 'yes' }
    expect(await message({ message: v10Message('x'), configuration })).toBe(
      'configuration.returnImmediately: must be true or false',
    )
  })

  it('answers in application/a2a+json to a caller that names it, on every operation', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const sent = await app.inject({
      method: 'POST',
      url: `${REST}/message:send`,
      headers: { 'content-type': 'application/a2a+json' },
      payload: JSON.stringify({ message: v10Message('a2a json') }),
    })
    expect(sent.headers['content-type']).toBe('application/a2a+json; charset=utf-8')
    const id = sent.json().task.id
    const type = async (url: string, accept?: string) =>
      (await app.inject({ url, headers: accept === undefined ? {} : { accept } })).headers[
        'content-type'
      ]
    expect(await type(`${REST}/tasks/${id}`, 'application/a2a+json, application/json')).toBe(
      'application/a2a+json; charset=utf-8',
    )
    // §11.1's application/json otherwise (the TCK's HTTP_JSON-SVC-001 sends Accept: */*).
    expect(await type(`${REST}/tasks/${id}`)).toBe('application/json; charset=utf-8')
    expect(await type(`${REST}/tasks`, '*/*')).toBe('application/json; charset=utf-8')
  })

  it('serves every route under a /{tenant} prefix too', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const sent = await send({ message: v10Message('tenant') }, `${REST}/acme`)
    const { id } = sent.json().task
    const got = await app.inject({ method: 'GET', url: `${REST}/acme/tasks/${id}` })
    expect(got.json()).toMatchObject({ id, status: { state: 'TASK_STATE_COMPLETED' } })
  })

  it('lets the token, not the tenant in the path, decide whose tasks a request sees', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const { id } = (await send({ message: v10Message('mine') }, `${REST}/acme`)).json().task
    // The same caller without the prefix, or under another tenant, sees its task.
    for (const prefix of [REST, `${REST}/globex`]) {
      expect((await app.inject({ method: 'GET', url: `${prefix}/tasks/${id}` })).statusCode).toBe(
        200,
      )
    }
    // Another caller naming the same tenant does not.
    const other = { authorization: bearer({ sub: 'someone-else' }) }
    const got = await app.inject({ method: 'GET', url: `${REST}/acme/tasks/${id}`, headers: other })
    expect(got.statusCode).toBe(404)
    const listed = await app.inject({ method: 'GET', url: `${REST}/acme/tasks`, headers: other })
    expect(listed.json().tasks).toEqual([])
  })

  it('GET /tasks/{id} applies historyLength; an unknown id is 404 google.rpc.Status', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const { id } = (await send({ message: v10Message('hi') })).json().task
    const got = await app.inject({ method: 'GET', url: `${REST}/tasks/${id}?historyLength=1` })
    expect(got.json().history).toHaveLength(1)
    const missing = await app.inject({ method: 'GET', url: `${REST}/tasks/does-not-exist` })
    expect(missing.statusCode).toBe(404)
    expect(missing.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(missing.json()).toEqual({
      error: {
        code: 404,
        status: 'NOT_FOUND',
        message: 'Task does-not-exist not found',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'TASK_NOT_FOUND',
            domain: 'a2a-protocol.org',
            metadata: { taskId: 'does-not-exist' },
          },
        ],
      },
    })
  })

  it('GET /tasks lists with query filters and always has nextPageToken', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    await send({ message: v10Message('a', { contextId: 'ctx' }) })
    await send({ message: v10Message('b', { contextId: 'ctx' }) })
    const response = await app.inject({
      method: 'GET',
      url: `${REST}/tasks?contextId=ctx&status=TASK_STATE_COMPLETED&pageSize=5&includeArtifacts=true`,
    })
    expect(response.json()).toMatchObject({ pageSize: 5, totalSize: 2, nextPageToken: '' })
    expect(response.json().tasks[0].artifacts).toHaveLength(1)
    const bad = await app.inject({ method: 'GET', url: `${REST}/tasks?pageSize=1000` })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().error.message).toBe('pageSize: must be from 1 to 100')
    const text = await app.inject({ method: 'GET', url: `${REST}/tasks?pageSize=ten` })
    expect(text.json().error.message).toBe('pageSize: must be a number')
    const empty = await app.inject({ method: 'GET', url: `${REST}/tasks?pageSize=` })
    expect(empty.json().error.message).toBe('pageSize: must be a number')
    const twice = await app.inject({
      method: 'GET',
      url: `${REST}/tasks?status=TASK_STATE_COMPLETED&status=TASK_STATE_FAILED`,
    })
    expect(twice.json().error.message).toBe('status: is given more than once; give it once')
    // A timestamp has a date, a time and an offset: "12" is not December of 2001.
    for (const after of ['12', '2026-01-01', '2026-01-01T00:00:00']) {
      const notRfc3339 = await app.inject({
        method: 'GET',
        url: `${REST}/tasks?statusTimestampAfter=${after}`,
      })
      expect(notRfc3339.statusCode).toBe(400)
      expect(notRfc3339.json().error.message).toBe(
        'statusTimestampAfter: must be an RFC 3339 timestamp',
      )
    }
    const since = await app.inject({
      method: 'GET',
      url: `${REST}/tasks?statusTimestampAfter=2000-01-01T00:00:00%2B02:00`,
    })
    expect(since.json().totalSize).toBe(2)
  })

  it('POST /tasks/{id}:cancel without a body cancels; a terminal task is 409', async () => {
    app = await testApp({}, { skills: [slowSkill(60_000)] })
    const sent = await send({
      message: v10Message('slow'),
      configuration: { returnImmediately: true },
    })
    const { id } = sent.json().task
    const url = `${REST}/tasks/${id}:cancel`
    const canceled = await app.inject({ method: 'POST', url, headers })
    expect(canceled.json().status.state).toBe('TASK_STATE_CANCELED')
    const again = await app.inject({ method: 'POST', url })
    expect(again.statusCode).toBe(409)
    expect(again.json().error.details[0]).toMatchObject({
      reason: 'TASK_NOT_CANCELABLE',
      metadata: { taskId: id, state: 'TASK_STATE_CANCELED' },
    })
  })

  it('serves each tasks/{id}:operation by its own methods; a HEAD of :subscribe opens no stream', async () => {
    app = await testApp({}, { skills: [askSkill] })
    const sent = await send({ message: v10Message('paint') })
    const { id } = sent.json().task
    expect(sent.json().task.status.state).toBe('TASK_STATE_INPUT_REQUIRED')
    const notAllowed = async (method: 'GET' | 'HEAD' | 'POST', path: string, allow: string) => {
      const response = await app.inject({ method, url: `${REST}${path}`, headers })
      expect(response.statusCode).toBe(405)
      expect(response.headers.allow).toBe(allow)
      if (method !== 'HEAD') {
        expect(response.json().error).toMatchObject({
          status: 'UNIMPLEMENTED',
          message: `${method} is not served at ${REST}${path}; it takes ${allow}`,
        })
      }
    }
    // The task waits for input: a HEAD that opened its stream would not answer before it ends.
    await notAllowed('HEAD', `/tasks/${id}:subscribe`, 'GET, POST')
    await notAllowed('GET', `/tasks/${id}:cancel`, 'POST')
    await notAllowed('POST', `/tasks/${id}`, 'GET, HEAD')
    const unknown = await app.inject({ method: 'GET', url: `${REST}/tasks/${id}:explode`, headers })
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json().error.message).toBe(
      'unknown operation ":explode"; use :cancel or :subscribe',
    )
    const noId = await app.inject({ method: 'POST', url: `${REST}/tasks/:cancel`, headers })
    expect(noId.statusCode).toBe(400)
    expect(noId.json().error.message).toBe('id: is empty; name the task')
    const head = await app.inject({ method: 'HEAD', url: `${REST}/tasks/${id}`, headers })
    expect(head.statusCode).toBe(200)
    expect(head.body).toBe('')
  })

  it('maps errors to their HTTP status: 415, 400 push, 400 version, 400 terminal task', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const wrongType = await app.inject({
      method: 'POST',
      url: `${REST}/message:send`,
      headers: { 'content-type': 'text/plain' },
      payload: '{}',
    })
    expect(wrongType.statusCode).toBe(415)
    expect(wrongType.json().error.message).toBe(
      'Content-Type text/plain is not supported; send application/json (or application/a2a+json)',
    )
    const push = await app.inject({ method: 'GET', url: `${REST}/tasks/t/pushNotificationConfigs` })
    expect(push.json().error).toMatchObject({
      code: 400,
      details: [{ reason: 'PUSH_NOTIFICATION_NOT_SUPPORTED' }],
    })
    const version = await app.inject({
      method: 'GET',
      url: `${REST}/tasks/t`,
      headers: { 'a2a-version': '0.3' },
    })
    expect(version.json().error).toMatchObject({
      code: 400,
      details: [{ reason: 'VERSION_NOT_SUPPORTED' }],
    })
    // The query parameter asks as the header does (for clients that cannot set headers).
    const byQuery = await app.inject({ method: 'GET', url: `${REST}/tasks/t?A2A-Version=0.3` })
    expect(byQuery.json().error).toMatchObject({ details: [{ reason: 'VERSION_NOT_SUPPORTED' }] })
    const { id } = (await send({ message: v10Message('done') })).json().task
    const terminal = await send({ message: v10Message('more', { taskId: id }) })
    expect(terminal.json().error).toMatchObject({
      code: 400,
      details: [{ reason: 'UNSUPPORTED_OPERATION' }],
    })
  })

  it('answers malformed JSON and unknown routes with google.rpc.Status, never HTML', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const malformed = await app.inject({
      method: 'POST',
      url: `${REST}/message:send`,
      headers,
      payload: '{"message":',
    })
    expect(malformed.statusCode).toBe(400)
    expect(malformed.json().error.status).toBe('INVALID_ARGUMENT')
    const unknown = await app.inject({ method: 'GET', url: `${REST}/nothing/here/at/all` })
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json().error.code).toBe(404)
  })

  it('answers a body with a __proto__ key with 400, naming the key, not as malformed JSON', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const response = await app.inject({
      method: 'POST',
      url: `${REST}/message:send`,
      headers,
      payload: '{"message":{"__proto__":{"role":"ROLE_AGENT"}}}',
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().error).toMatchObject({
      status: 'INVALID_ARGUMENT',
      message: expect.stringContaining('"__proto__"'),
    })
  })
})

describe('HTTP+JSON streaming', () => {
  let app: FastifyInstance
  afterEach(() => app.close())

  it('POST /message:stream sends bare StreamResponses and closes at input-required', async () => {
    app = await testApp({}, { skills: [askSkill] })
    const base = await listening(app)
    const response = await fetch(`${base}${REST}/message:stream`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ message: v10Message('paint') }),
    })
    const frames = (await readAll(response)).frames.map((f) => JSON.parse(f.data))
    expect(Object.keys(frames[0])).toEqual(['task'])
    expect(frames.at(-1).statusUpdate.status.state).toBe('TASK_STATE_INPUT_REQUIRED')
  })

  it('GET and POST /tasks/{id}:subscribe both follow a running task', async () => {
    app = await testApp({}, { skills: [slowSkill(200)] })
    const base = await listening(app)
    for (const method of ['GET', 'POST']) {
      const sent = await fetch(`${base}${REST}/message:send`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          message: v10Message('slow'),
          configuration: { returnImmediately: true },
        }),
      })
      const { id } = ((await sent.json()) as any).task
      const response = await fetch(`${base}${REST}/tasks/${id}:subscribe`, {
        method,
        headers: authHeaders(),
      })
      const frames = (await readAll(response)).frames.map((f) => JSON.parse(f.data))
      expect(frames[0].task.id).toBe(id)
      expect(frames.at(-1).statusUpdate.status.state).toBe('TASK_STATE_COMPLETED')
    }
  })

  it('refuses :subscribe to a terminal task, saying how this binding reads it', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const base = await listening(app)
    const sent = await fetch(`${base}${REST}/message:send`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ message: v10Message('done') }),
    })
    const { id } = ((await sent.json()) as any).task
    const response = await fetch(`${base}${REST}/tasks/${id}:subscribe`, { headers: authHeaders() })
    expect(response.status).toBe(400)
    expect(((await response.json()) as any).error.message).toBe(
      `Task ${id} is completed; a terminal task has nothing more to stream (read it with GET /tasks/{id})`,
    )
  })
})
