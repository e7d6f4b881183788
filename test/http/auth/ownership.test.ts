/**
 * Ownership and skill scopes in every dialect: another caller's task is "not found", answered
 * exactly like a task that does not exist (same status, same body but for the id); an admin
 * sees every task; a skill the token's scopes do not grant is 403.
 */
import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { echoSkill } from '../../../src/skills/echo/index.js'
import { testApp } from '../../helpers/app.js'
import { signJwt } from '../../../src/auth/jws.js'
import { bearer, TEST_SECRET } from '../../helpers/auth.js'
import { textMessage } from '../../helpers/bodies.js'
import { v03Message, v10Message } from '../../helpers/jsonrpc.js'
import { askSkill } from '../../helpers/skills.js'
import { expectAuthError } from './routes.js'
import type { Dialect } from './routes.js'

const ALICE = bearer({ sub: 'alice' })
const BOB = bearer({ sub: 'bob' })
const ALICE_OTHER_TENANT = bearer({ sub: 'alice', tenant: 'other' })
const ADMIN = bearer({ sub: 'operator', scopes: ['a2a:admin'] })

type Operation = (
  app: FastifyInstance,
  taskId: string,
  authorization: string,
) => Promise<{ status: number; body: any }>

const reply = (response: { statusCode: number; json(): any }) => ({
  status: response.statusCode,
  body: response.json(),
})
const json = { 'content-type': 'application/json' }
const rpc =
  (version: '1.0' | '0.3', method: string, params: (id: string) => unknown): Operation =>
  async (app, id, authorization) =>
    reply(
      await app.inject({
        method: 'POST',
        url: '/a2a/jsonrpc',
        headers: { ...json, authorization, ...(version === '1.0' && { 'a2a-version': '1.0' }) },
        payload: { jsonrpc: '2.0', id: 1, method, params: params(id) },
      }),
    )
const http =
  (
    method: 'GET' | 'POST',
    url: (id: string) => string,
    payload?: (id: string) => object,
  ): Operation =>
  async (app, id, authorization) =>
    reply(
      await app.inject({
        method,
        url: url(id),
        headers: { ...(payload && json), authorization },
        ...(payload && { payload: payload(id) }),
      }),
    )

const OPERATIONS: [string, Operation][] = [
  ['seed get', http('GET', (id) => `/tasks/${id}`)],
  ['seed cancel', http('POST', (id) => `/tasks/${id}/cancel`)],
  [
    'seed continue',
    http(
      'POST',
      (id) => `/tasks/${id}/send`,
      () => ({ message: textMessage('red') }),
    ),
  ],
  ['1.0 GetTask', rpc('1.0', 'GetTask', (id) => ({ id }))],
  ['1.0 CancelTask', rpc('1.0', 'CancelTask', (id) => ({ id }))],
  ['1.0 SubscribeToTask', rpc('1.0', 'SubscribeToTask', (id) => ({ id }))],
  [
    '1.0 SendMessage (continue)',
    rpc('1.0', 'SendMessage', (id) => ({ message: v10Message('red', { taskId: id }) })),
  ],
  ['0.3 tasks/get', rpc('0.3', 'tasks/get', (id) => ({ id }))],
  ['0.3 tasks/cancel', rpc('0.3', 'tasks/cancel', (id) => ({ id }))],
  ['0.3 tasks/resubscribe', rpc('0.3', 'tasks/resubscribe', (id) => ({ id }))],
  [
    '0.3 message/send (continue)',
    rpc('0.3', 'message/send', (id) => ({ message: v03Message('red', { taskId: id }) })),
  ],
  ['REST GET /tasks/{id}', http('GET', (id) => `/a2a/rest/tasks/${id}`)],
  ['REST POST /tasks/{id}:cancel', http('POST', (id) => `/a2a/rest/tasks/${id}:cancel`)],
  ['REST GET /tasks/{id}:subscribe', http('GET', (id) => `/a2a/rest/tasks/${id}:subscribe`)],
  [
    'REST POST /message:send (continue)',
    http(
      'POST',
      () => '/a2a/rest/message:send',
      (id) => ({
        message: v10Message('red', { taskId: id }),
      }),
    ),
  ],
]

/** The body with the task id and the per-request id blanked, to compare two answers. */
function normalized(body: any, taskId: string): unknown {
  const copy = JSON.parse(JSON.stringify(body).replaceAll(taskId, 'TASK'))
  if (copy.error) delete copy.error.requestId
  return copy
}

describe('task ownership across callers, in every dialect', () => {
  let app: FastifyInstance
  let taskId: string
  beforeAll(async () => {
    app = await testApp({}, { skills: [askSkill, echoSkill] })
  })
  afterAll(() => app.close())

  /** Alice's task, waiting for input (so it can be continued, canceled and followed). */
  async function alicesTask(): Promise<string> {
    const id = randomUUID()
    const response = await app.inject({
      method: 'POST',
      url: '/tasks/send',
      headers: { ...json, authorization: ALICE },
      payload: { id, message: textMessage('paint') },
    })
    expect(response.json().status.state).toBe('input-required')
    return id
  }

  it.each(OPERATIONS)('%s on another caller’s task answers like a missing task', async (_, op) => {
    taskId = await alicesTask()
    const missing = randomUUID()
    const foreign = await op(app, taskId, BOB)
    const absent = await op(app, missing, BOB)
    expect(foreign.status).toBe(absent.status)
    expect(normalized(foreign.body, taskId)).toEqual(normalized(absent.body, missing))
    expect(JSON.stringify(foreign.body)).not.toContain('paint')
    // Alice's task is untouched.
    const own = await app.inject({ url: `/tasks/${taskId}`, headers: { authorization: ALICE } })
    expect(own.json().status.state).toBe('input-required')
  })

  it.each(OPERATIONS)('%s: the same subject in another tenant is another caller', async (_, op) => {
    taskId = await alicesTask()
    const foreign = await op(app, taskId, ALICE_OTHER_TENANT)
    expect(JSON.stringify(foreign.body)).not.toContain('paint')
    expect([404, 200]).toContain(foreign.status)
    const again = await op(app, randomUUID(), ALICE_OTHER_TENANT)
    expect(foreign.status).toBe(again.status)
  })

  it('lists only the caller’s own tasks (1.0 ListTasks and REST GET /tasks); an admin lists all', async () => {
    const contextId = randomUUID()
    await app.inject({
      method: 'POST',
      url: '/tasks/send',
      headers: { ...json, authorization: ALICE },
      payload: { id: randomUUID(), sessionId: contextId, message: textMessage('paint') },
    })
    const list = async (authorization: string) => {
      const rest = await app.inject({
        url: `/a2a/rest/tasks?contextId=${contextId}`,
        headers: { authorization },
      })
      const rpcList = await rpc('1.0', 'ListTasks', () => ({ contextId }))(app, '', authorization)
      expect(rpcList.body.result.tasks.length).toBe(rest.json().tasks.length)
      return rest.json().tasks.length as number
    }
    expect(await list(ALICE)).toBe(1)
    expect(await list(BOB)).toBe(0)
    expect(await list(ADMIN)).toBe(1)
  })

  it('an admin reads and cancels another caller’s task', async () => {
    taskId = await alicesTask()
    const read = await app.inject({ url: `/tasks/${taskId}`, headers: { authorization: ADMIN } })
    expect(read.statusCode).toBe(200)
    const canceled = await app.inject({
      method: 'POST',
      url: `/tasks/${taskId}/cancel`,
      headers: { authorization: ADMIN },
    })
    expect(canceled.json().status.state).toBe('canceled')
  })

  it('a seed task id another caller holds is a conflict, never that caller’s task', async () => {
    taskId = await alicesTask()
    const response = await app.inject({
      method: 'POST',
      url: '/tasks/send',
      headers: { ...json, authorization: BOB },
      payload: { id: taskId, message: textMessage('paint') },
    })
    expect(response.statusCode).toBe(409)
    expect(response.json().error.code).toBe('TASK_ID_CONFLICT')
    expect(JSON.stringify(response.json())).not.toContain('input-required')
  })

  it('records the caller and tenant on the task', async () => {
    const id = randomUUID()
    await app.inject({
      method: 'POST',
      url: '/tasks/send',
      headers: { ...json, authorization: bearer({ sub: 'carol', tenant: 'acme' }) },
      payload: { id, message: textMessage('paint') },
    })
    const task = await app.tasks.get(id)
    expect(task).toMatchObject({ owner: 'acme/carol', tenant: 'acme' })
  })
})

describe('skill scopes in every dialect', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await testApp({}, { skills: [askSkill, echoSkill] })
  })
  afterAll(() => app.close())
  const ECHO_ONLY = bearer({ sub: 'dana', scopes: ['a2a:invoke', 'skill:echo'] })

  const sends: [string, Dialect, Operation][] = [
    [
      'seed POST /tasks/send',
      'seed',
      http(
        'POST',
        () => '/tasks/send',
        () => ({ id: randomUUID(), message: textMessage('x') }),
      ),
    ],
    [
      'seed POST /tasks/sendSubscribe',
      'seed',
      http(
        'POST',
        () => '/tasks/sendSubscribe',
        () => ({
          id: randomUUID(),
          message: textMessage('x'),
        }),
      ),
    ],
    [
      '1.0 SendMessage',
      'jsonrpc-1.0',
      rpc('1.0', 'SendMessage', () => ({ message: v10Message('x') })),
    ],
    [
      '1.0 SendStreamingMessage',
      'jsonrpc-1.0',
      rpc('1.0', 'SendStreamingMessage', () => ({ message: v10Message('x') })),
    ],
    [
      '0.3 message/send',
      'jsonrpc-0.3',
      rpc('0.3', 'message/send', () => ({ message: v03Message('x') })),
    ],
    [
      '0.3 message/stream',
      'jsonrpc-0.3',
      rpc('0.3', 'message/stream', () => ({ message: v03Message('x') })),
    ],
    [
      'REST POST /message:send',
      'rest',
      http(
        'POST',
        () => '/a2a/rest/message:send',
        () => ({ message: v10Message('x') }),
      ),
    ],
    [
      'REST POST /message:stream',
      'rest',
      http(
        'POST',
        () => '/a2a/rest/message:stream',
        () => ({ message: v10Message('x') }),
      ),
    ],
  ]

  it.each(sends)(
    '%s to a skill the token lacks is 403 insufficient_scope',
    async (_, dialect, op) => {
      const { status, body } = await op(app, '', ECHO_ONLY)
      expect(status).toBe(403)
      expectAuthError(dialect, body, 'PERMISSION_DENIED')
      expect(JSON.stringify(body)).toContain('skill:ask')
    },
  )

  it('the 403 carries the missing scope in WWW-Authenticate', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/tasks/send',
      headers: { ...json, authorization: ECHO_ONLY },
      payload: { id: randomUUID(), message: textMessage('x') },
    })
    expect(response.headers['www-authenticate']).toBe(
      'Bearer error="insufficient_scope", scope="skill:ask"',
    )
  })

  it.each([
    ['scp as an array', { scp: ['a2a:invoke', 'skill:echo'] }],
    ['scp as a string', { scp: 'a2a:invoke skill:echo' }],
  ])('reads scopes from %s', async (_, claim) => {
    const now = Math.floor(Date.now() / 1000)
    const signed = signJwt(
      { sub: 'erin', ...claim, exp: now + 60 },
      { alg: 'HS256', key: TEST_SECRET },
    )
    const response = await app.inject({
      url: '/a2a/rest/extendedAgentCard',
      headers: { authorization: `Bearer ${signed}` },
    })
    expect(response.json().skills.map((s: { id: string }) => s.id)).toEqual(['echo'])
  })

  it('the granted skill runs', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/tasks/send',
      headers: { ...json, authorization: ECHO_ONLY },
      payload: { id: randomUUID(), message: textMessage('x', { skillId: 'echo' }) },
    })
    expect(response.json().status.state).toBe('completed')
  })

  it('the extended card lists only the skills the caller may use', async () => {
    const response = await app.inject({
      url: '/a2a/rest/extendedAgentCard',
      headers: { authorization: ECHO_ONLY },
    })
    expect(response.json().skills.map((s: { id: string }) => s.id)).toEqual(['echo'])
    const all = await app.inject({ url: '/a2a/rest/extendedAgentCard' })
    expect(all.json().skills.map((s: { id: string }) => s.id)).toEqual(['ask', 'echo'])
  })
})
