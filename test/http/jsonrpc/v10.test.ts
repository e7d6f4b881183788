/** The JSON-RPC endpoint in A2A 1.0 (`A2A-Version: 1.0`), answered through inject. */
import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { textPart } from '../../../src/domain/parts.js'
import { echoSkill } from '../../../src/skills/echo/index.js'
import { defineSkill } from '../../../src/skills/skill.js'
import { testApp } from '../../helpers/app.js'
import { authHeaders } from '../../helpers/auth.js'
import { JSON_RPC, rpc, v10Message } from '../../helpers/jsonrpc.js'
import { askSkill, slowSkill } from '../../helpers/skills.js'

const replySkill = defineSkill({
  id: 'reply',
  name: 'Reply',
  description: 'answers with a direct message',
  tags: [],
  execute: async () => ({ state: 'message', message: [textPart('hello back')] }),
})

const errorInfo = (reason: string) => ({
  '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
  reason,
  domain: 'a2a-protocol.org',
})

describe('JSON-RPC 1.0: SendMessage (§3.1.1)', () => {
  let app: FastifyInstance
  afterEach(() => app.close())

  it('blocks by default and answers with the completed task', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const message = v10Message('hello world')
    const { status, body } = await rpc(app, 'SendMessage', { message })
    expect(status).toBe(200)
    expect(body).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: {
        task: {
          status: { state: 'TASK_STATE_COMPLETED', message: { role: 'ROLE_AGENT' } },
          artifacts: [{ name: 'echo', parts: [{ text: 'hello world' }] }],
          history: [
            { messageId: message.messageId, role: 'ROLE_USER', parts: [{ text: 'hello world' }] },
            {},
          ],
        },
      },
    })
    const { task } = body.result
    expect(task.history[0]).toMatchObject({ contextId: task.contextId, taskId: task.id })
  })

  it('returns at once with returnImmediately', async () => {
    app = await testApp({}, { skills: [slowSkill(60_000)] })
    const { body } = await rpc(app, 'SendMessage', {
      message: v10Message('slow'),
      configuration: { returnImmediately: true },
    })
    expect(body.result.task.status.state).toMatch(/TASK_STATE_(SUBMITTED|WORKING)/)
  })

  it('answers with the message alone when the skill replies directly', async () => {
    app = await testApp({}, { skills: [replySkill] })
    const { body } = await rpc(app, 'SendMessage', { message: v10Message('hi') })
    expect(body.result).toEqual({
      message: {
        messageId: expect.any(String),
        contextId: expect.any(String),
        role: 'ROLE_AGENT',
        parts: [{ text: 'hello back' }],
      },
    })
  })

  it('answers a retried messageId with the same task', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const message = v10Message('once')
    const first = await rpc(app, 'SendMessage', { message })
    const second = await rpc(app, 'SendMessage', { message })
    expect(second.body.result.task.id).toBe(first.body.result.task.id)
  })

  it('continues an input-required task by taskId, keeping its context', async () => {
    app = await testApp({}, { skills: [askSkill] })
    const first = await rpc(app, 'SendMessage', { message: v10Message('paint') })
    const task = first.body.result.task
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED')
    const second = await rpc(app, 'SendMessage', {
      message: v10Message('blue', { taskId: task.id, contextId: task.contextId }),
    })
    expect(second.body.result.task).toMatchObject({
      id: task.id,
      contextId: task.contextId,
      status: { state: 'TASK_STATE_COMPLETED' },
      artifacts: [{ parts: [{ text: 'colour: blue' }] }],
    })
  })

  it('answers a retried continuation with the task, and refuses its messageId on another message', async () => {
    app = await testApp({}, { skills: [askSkill] })
    const start = v10Message('paint')
    const task = (await rpc(app, 'SendMessage', { message: start })).body.result.task
    const refused = {
      code: -32602,
      message: 'message.messageId: was already used for a different message',
    }
    // An answer under the first message's id that says something else is not a retry.
    const reused = await rpc(app, 'SendMessage', {
      message: v10Message('blue', { taskId: task.id, messageId: start.messageId }),
    })
    expect(reused.body.error).toMatchObject(refused)

    const answer = v10Message('blue', { taskId: task.id })
    const answered = await rpc(app, 'SendMessage', { message: answer })
    expect(answered.body.result.task.status.state).toBe('TASK_STATE_COMPLETED')
    const retried = await rpc(app, 'SendMessage', { message: answer })
    expect(retried.body.result.task).toMatchObject({
      id: task.id,
      status: { state: 'TASK_STATE_COMPLETED' },
      artifacts: [{ parts: [{ text: 'colour: blue' }] }],
    })
    const changed = await rpc(app, 'SendMessage', {
      message: { ...answer, parts: [{ text: 'green' }] },
    })
    expect(changed.body.error).toMatchObject(refused)
  })

  it('refuses a message to a terminal task with -32004', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const first = await rpc(app, 'SendMessage', { message: v10Message('done') })
    const { body } = await rpc(app, 'SendMessage', {
      message: v10Message('more', { taskId: first.body.result.task.id }),
    })
    expect(body.error).toMatchObject({ code: -32004, data: [errorInfo('UNSUPPORTED_OPERATION')] })
  })

  it('refuses an unknown taskId with -32001 and a contextId mismatch with -32602', async () => {
    app = await testApp({}, { skills: [askSkill] })
    const unknown = await rpc(app, 'SendMessage', {
      message: v10Message('x', { taskId: 'does-not-exist' }),
    })
    expect(unknown.body.error).toMatchObject({ code: -32001, data: [errorInfo('TASK_NOT_FOUND')] })
    const first = await rpc(app, 'SendMessage', { message: v10Message('paint') })
    const mismatch = await rpc(app, 'SendMessage', {
      message: v10Message('blue', { taskId: first.body.result.task.id, contextId: 'other' }),
    })
    expect(mismatch.body.error).toMatchObject({ code: -32602 })
    expect(mismatch.body.error.message).toMatch(/^message\.contextId: does not match/)
  })

  it('refuses a part media type the skill does not accept with -32005', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const { body } = await rpc(app, 'SendMessage', {
      message: v10Message('x', { parts: [{ raw: 'dGNr', mediaType: 'application/x-unknown' }] }),
    })
    expect(body.error.code).toBe(-32005)
    expect(body.error.data[0]).toMatchObject(errorInfo('CONTENT_TYPE_NOT_SUPPORTED'))
  })

  it('names a part over a size limit by its 1.0 field, in JSON-RPC and HTTP+JSON', async () => {
    app = await testApp({ MAX_FILE_BYTES: '8' }, { skills: [echoSkill] })
    const message = v10Message('x', {
      parts: [{ text: 'see' }, { raw: 'dGNrdGNrdGNr', mediaType: 'text/plain' }],
    })
    const expected = 'message.parts[1].raw: the inline file size exceeds the limit of 8'
    const { body } = await rpc(app, 'SendMessage', { message })
    expect(body.error).toMatchObject({ code: -32602, message: expected })
    expect(body.error.data[0].metadata).toMatchObject({ field: 'message.parts[1].raw' })
    expect(body.error.data[1]).toMatchObject({
      fieldViolations: [{ field: 'message.parts[1].raw', description: expected }],
    })
    const rest = await app.inject({
      method: 'POST',
      url: '/a2a/rest/message:send',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...authHeaders() },
      payload: { message: { ...message, messageId: randomUUID() } },
    })
    expect(rest.statusCode).toBe(400)
    expect(rest.json().error.message).toBe(expected)
  })

  it('refuses a push notification config with -32003 (no push delivery)', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const { body } = await rpc(app, 'SendMessage', {
      message: v10Message('x'),
      configuration: { taskPushNotificationConfig: { url: 'https://hook.example' } },
    })
    expect(body.error.code).toBe(-32003)
  })

  it('names the missing field of invalid params (-32602)', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const { body } = await rpc(app, 'SendMessage', { message: { role: 'ROLE_USER', parts: [] } })
    expect(body.error).toMatchObject({ code: -32602, message: 'message.messageId: is required' })
    expect(body.error.data[0]).toMatchObject({
      reason: 'INVALID_PARAMS',
      metadata: { field: 'message.messageId' },
    })
  })

  it('refuses params that are not an object, in either version (-32602)', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    for (const params of [[{ message: v10Message('x') }], 'x', 5]) {
      const v10 = await rpc(app, 'SendMessage', params)
      expect(v10.body.error).toMatchObject({ code: -32602, message: 'params must be an object' })
      const v03 = await rpc(app, 'message/send', params, { version: null })
      expect(v03.body.error).toMatchObject({ code: -32602, message: 'params must be an object' })
    }
    // No params, or null, is a call without them: the method says that it needs them, and what.
    const none = await rpc(app, 'GetTask', null)
    expect(none.body.error).toMatchObject({
      code: -32602,
      message: 'params: is missing; GetTask needs params (id: is required)',
    })
    expect(none.body.error.data[0]).toMatchObject({ metadata: { field: 'params' } })
    const v03 = await rpc(app, 'tasks/get', null, { version: null })
    expect(v03.body.error).toMatchObject({
      code: -32602,
      message: 'params: is missing; tasks/get needs params (id: is required)',
    })
    // A method that takes none runs as before (ListTasks: every task of the caller).
    expect((await rpc(app, 'ListTasks', null)).body.result).toBeDefined()
  })

  it('tells a field of the wrong type from a missing one (-32602)', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const wrong = async (method: string, params: object) => (await rpc(app, method, params)).body
    expect((await wrong('GetTask', { id: 5 })).error).toMatchObject({
      code: -32602,
      message: 'id: must be a string',
    })
    expect((await wrong('CancelTask', {})).error.message).toBe('id: is required')
    const message = { messageId: 7, role: 'ROLE_USER', parts: 'hello' }
    expect((await wrong('SendMessage', { message })).error.message).toBe(
      'message.messageId: must be a string',
    )
    const parts = { messageId: 'm-1', role: 'ROLE_USER', parts: 'hello' }
    expect((await wrong('SendMessage', { message: parts })).error.message).toBe(
      'message.parts: must be an array',
    )
  })

  it('says what is wrong with a count: its type, a fraction, or its range (-32602)', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const message = (params: object) =>
      rpc(app, 'GetTask', { id: 'x', ...params }).then(({ body }) => body.error.message)
    expect(await message({ historyLength: 'all' })).toBe('historyLength: must be a number')
    expect(await message({ historyLength: 1.5 })).toBe('historyLength: must be a whole number')
    expect(await message({ historyLength: -1 })).toBe('historyLength: must be 0 or more')
    const list = (pageSize: number) =>
      rpc(app, 'ListTasks', { pageSize }).then(({ body }) => body.error.message)
    expect(await list(0)).toBe('pageSize: must be from 1 to 100')
    expect(await list(101)).toBe('pageSize: must be from 1 to 100')
  })

  it('refuses a message that does not speak as the user', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const { body } = await rpc(app, 'SendMessage', {
      message: v10Message('x', { role: 'ROLE_AGENT' }),
    })
    expect(body.error).toMatchObject({
      code: -32602,
      message: 'message.role: a caller sends messages with role ROLE_USER (got "ROLE_AGENT")',
    })
    // What @a2a-js/sdk sends for a message given to it as JSON, and a message with no role.
    const sdk = await rpc(app, 'SendMessage', {
      message: v10Message('x', { role: 'UNRECOGNIZED' }),
    })
    expect(sdk.body.error.message).toBe(
      'message.role: a caller sends messages with role ROLE_USER (got "UNRECOGNIZED")',
    )
    const { role: _role, ...roleless } = v10Message('x')
    const none = await rpc(app, 'SendMessage', { message: roleless })
    expect(none.body.error.message).toBe('message.role: is required')
  })
})

describe('JSON-RPC 1.0: tasks (§3.1.3–3.1.5)', () => {
  let app: FastifyInstance
  afterEach(() => app.close())

  it('GetTask applies historyLength and accepts the proto field name', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const sent = await rpc(app, 'SendMessage', { message: v10Message('hi') })
    const { id } = sent.body.result.task
    const one = await rpc(app, 'GetTask', { id, historyLength: 1 })
    expect(one.body.result.history).toHaveLength(1)
    const none = await rpc(app, 'GetTask', { id, history_length: 0 })
    expect(none.body.result).not.toHaveProperty('history')
  })

  it('GetTask of an unknown id is -32001', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const { body } = await rpc(app, 'GetTask', { id: 'does-not-exist' })
    expect(body).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: {
        code: -32001,
        message: 'Task does-not-exist not found',
        data: [{ ...errorInfo('TASK_NOT_FOUND'), metadata: { taskId: 'does-not-exist' } }],
      },
    })
  })

  it('ListTasks filters by context and state, pages by cursor and omits artifacts', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    for (const text of ['a', 'b', 'c']) {
      await rpc(app, 'SendMessage', { message: v10Message(text, { contextId: 'ctx-list' }) })
    }
    await rpc(app, 'SendMessage', { message: v10Message('elsewhere') })
    const first = await rpc(app, 'ListTasks', {
      contextId: 'ctx-list',
      status: 'TASK_STATE_COMPLETED',
      pageSize: 2,
    })
    expect(first.body.result).toMatchObject({ pageSize: 2, totalSize: 3 })
    expect(first.body.result.tasks).toHaveLength(2)
    expect(first.body.result.tasks[0]).not.toHaveProperty('artifacts')
    const second = await rpc(app, 'ListTasks', {
      contextId: 'ctx-list',
      pageSize: 2,
      pageToken: first.body.result.nextPageToken,
    })
    expect(second.body.result.tasks).toHaveLength(1)
    expect(second.body.result.nextPageToken).toBe('')
    const withArtifacts = await rpc(app, 'ListTasks', {
      contextId: 'ctx-list',
      includeArtifacts: true,
    })
    expect(withArtifacts.body.result.tasks[0].artifacts).toHaveLength(1)
  })

  it('CancelTask cancels a running task and refuses a terminal one (-32002)', async () => {
    app = await testApp({}, { skills: [slowSkill(60_000), echoSkill] })
    const sent = await rpc(app, 'SendMessage', {
      message: v10Message('slow'),
      configuration: { returnImmediately: true },
    })
    const { id } = sent.body.result.task
    const canceled = await rpc(app, 'CancelTask', { id })
    expect(canceled.body.result.status.state).toBe('TASK_STATE_CANCELED')
    const again = await rpc(app, 'CancelTask', { id })
    expect(again.body.error).toMatchObject({
      code: -32002,
      data: [expect.objectContaining(errorInfo('TASK_NOT_CANCELABLE'))],
    })
    // The state is named as 1.0 names it, as everywhere else in this dialect.
    expect(again.body.error.data[0].metadata).toEqual({ taskId: id, state: 'TASK_STATE_CANCELED' })
  })

  it('push notification methods answer -32003; GetExtendedAgentCard answers the card', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    for (const method of [
      'CreateTaskPushNotificationConfig',
      'GetTaskPushNotificationConfig',
      'ListTaskPushNotificationConfigs',
      'DeleteTaskPushNotificationConfig',
    ]) {
      expect((await rpc(app, method, { taskId: 't' })).body.error.code).toBe(-32003)
    }
    const card = (await rpc(app, 'GetExtendedAgentCard', {})).body.result
    expect(card).toMatchObject({
      capabilities: { extendedAgentCard: true },
      skills: [{ id: 'echo' }],
    })
  })
})

describe('JSON-RPC envelope and version routing (§9, §3.2.6)', () => {
  let app: FastifyInstance
  afterEach(() => app.close())

  const post = (payload: string, headers: Record<string, string>) =>
    app.inject({ method: 'POST', url: JSON_RPC, headers, payload })

  it('answers an unsupported A2A-Version with -32009', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const { body } = await rpc(app, 'GetTask', { id: 'x' }, { version: '2.0', id: 25 })
    expect(body).toMatchObject({
      id: 25,
      error: { code: -32009, data: [expect.objectContaining(errorInfo('VERSION_NOT_SUPPORTED'))] },
    })
  })

  it('reads A2A-Version sent twice (Node joins the two) as that version, unless they differ', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const twice = await rpc(app, 'GetTask', { id: 'x' }, { version: '1.0, 1.0.1' })
    expect(twice.body.error).toMatchObject({ code: -32001, message: 'Task x not found' })
    const differing = await rpc(app, 'GetTask', { id: 'x' }, { version: '1.0, 0.3' })
    expect(differing.body.error).toMatchObject({ code: -32009 })
  })

  it('routes a 1.0 method name without the header to 0.3, where it does not exist, and says so', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const { body } = await rpc(app, 'GetTask', { id: 'x' }, { version: null })
    expect(body.error).toMatchObject({
      code: -32601,
      message:
        'Method not found: GetTask. It is an A2A 1.0 method: send the header A2A-Version: 1.0 (a request without it is read as 0.3)',
    })
    const v03 = await rpc(app, 'tasks/get', { id: 'x' }, { version: '1.0' })
    expect(v03.body.error).toMatchObject({
      code: -32601,
      message:
        'Method not found: tasks/get. It is an A2A 0.3 method: send the header A2A-Version: 0.3 (this request says 1.0)',
    })
  })

  it('names the method a near miss meant: a case, a plural, a typo; nothing for a name far from all', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const said = async (method: string, version: string | null) =>
      (await rpc(app, method, {}, { version })).body.error.message
    expect(await said('ListTaskPushNotificationConfig', '1.0')).toBe(
      'Method not found: ListTaskPushNotificationConfig. Did you mean ListTaskPushNotificationConfigs?',
    )
    expect(await said('gettask', '1.0')).toBe('Method not found: gettask. Did you mean GetTask?')
    expect(await said('message/sned', null)).toBe(
      'Method not found: message/sned. Did you mean message/send?',
    )
    expect(await said('Frobnicate', '1.0')).toBe('Method not found: Frobnicate')
  })

  it('knows no method by a name every object has (valueOf, constructor, __proto__)', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    for (const version of ['1.0', null]) {
      for (const method of ['valueOf', 'constructor', 'toString', '__proto__', 'hasOwnProperty']) {
        const { status, body } = await rpc(app, method, {}, { version, id: 7 })
        expect(status).toBe(200)
        expect(body).toMatchObject({
          id: 7,
          error: { code: -32601, message: `Method not found: ${method}` },
        })
      }
    }
  })

  it('answers malformed JSON with -32700 and id null, as JSON', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const response = await post('{"jsonrpc":"2.0",', {
      'content-type': 'application/json',
      'a2a-version': '1.0',
    })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toMatch(/^application\/json/)
    expect(response.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } })
  })

  it('answers a body with a __proto__ key as an invalid call naming the key, not as malformed JSON', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    for (const contentType of ['application/json', 'application/a2a+json']) {
      const response = await post(
        '{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"x","__proto__":{"a":1}}}',
        { 'content-type': contentType, 'a2a-version': '1.0' },
      )
      expect(response.json()).toMatchObject({
        jsonrpc: '2.0',
        error: { code: -32602, message: expect.stringContaining('"__proto__"') },
      })
    }
  })

  it('answers a wrong Content-Type with -32005', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const response = await post('{}', { 'content-type': 'text/plain', 'a2a-version': '1.0' })
    expect(response.json()).toMatchObject({ id: null, error: { code: -32005 } })
  })

  it('answers a body that is not a request object with -32600', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const response = await post('{"id":3,"method":"GetTask"}', {
      'content-type': 'application/json',
      'a2a-version': '1.0',
    })
    expect(response.json()).toMatchObject({ id: 3, error: { code: -32600 } })
  })

  it('runs a request without id and answers it with id null, as the official SDK server does', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const payload = JSON.stringify({
      jsonrpc: '2.0',
      method: 'SendMessage',
      params: { message: v10Message('no id') },
    })
    const response = await post(payload, {
      'content-type': 'application/json',
      'a2a-version': '1.0',
    })
    expect(response.json()).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      result: { task: { status: { state: 'TASK_STATE_COMPLETED' } } },
    })
  })

  it('answers an empty body with -32600: no request at all, not bad params', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const response = await post('', { 'content-type': 'application/json', 'a2a-version': '1.0' })
    expect(response.json()).toMatchObject({
      id: null,
      error: {
        code: -32600,
        message: 'Invalid JSON-RPC request: the body is empty',
        data: [{ reason: 'INVALID_REQUEST' }],
      },
    })
  })

  it('answers an oversized body with a JSON-RPC error, not an HTML page', async () => {
    app = await testApp({ BODY_LIMIT: '2048' }, { skills: [echoSkill] })
    const response = await post(JSON.stringify({ pad: 'x'.repeat(4096) }), {
      'content-type': 'application/json',
      'a2a-version': '1.0',
    })
    expect(response.statusCode).toBe(413)
    expect(response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } })
  })

  it('serves the endpoint with a trailing slash too', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const response = await app.inject({
      method: 'POST',
      url: `${JSON_RPC}/`,
      headers: { 'a2a-version': '1.0' },
      payload: { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } },
    })
    expect(response.json().error.code).toBe(-32001)
  })
})
