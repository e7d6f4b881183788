import { gzipSync } from 'node:zlib'
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { testApp } from '../../helpers/app.js'
import { sendBody } from '../../helpers/bodies.js'

/** Every bad request gets a JSON error in the brief's shape, and creates nothing. */
describe("bad input to the brief's endpoints", () => {
  let app: FastifyInstance
  afterEach(() => app.close())

  const post = (payload: string | object, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/tasks/send',
      headers: { 'content-type': 'application/json', ...headers },
      payload,
    })

  const expectError = (
    response: Awaited<ReturnType<typeof post>>,
    statusCode: number,
    error: Record<string, unknown>,
  ) => {
    expect(response.statusCode).toBe(statusCode)
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8')
    const body = response.json()
    expect(body.error).toMatchObject(error)
    expect(body.error.requestId).toBe(response.headers['x-request-id'])
    expect(response.body).not.toMatch(/at .*\.(ts|js):\d+/)
  }

  it('answers 400 MALFORMED_JSON to a body that is not JSON', async () => {
    app = await testApp()
    expectError(await post('{"id": '), 400, {
      code: 'MALFORMED_JSON',
      message: 'The request body is not valid JSON',
    })
  })

  it('refuses a body that is not UTF-8 JSON as sent: bad bytes, another charset, compressed', async () => {
    app = await testApp()
    const body = sendBody('café', { metadata: { skillId: 'echo' } })
    const latin1 = Buffer.from(JSON.stringify(body), 'latin1')
    expectError(await post(latin1), 400, {
      code: 'MALFORMED_JSON',
      message: 'The request body is not valid UTF-8',
    })
    expectError(
      await post(JSON.stringify(body), { 'content-type': 'application/json; charset=iso-8859-1' }),
      415,
      {
        code: 'UNSUPPORTED_CONTENT_TYPE',
        message:
          'Content-Type application/json; charset=iso-8859-1 is not supported; send JSON in UTF-8 (charset=utf-8, or none)',
      },
    )
    expectError(
      await post(gzipSync(JSON.stringify(body)), {
        'content-encoding': 'gzip',
      }),
      415,
      {
        code: 'UNSUPPORTED_CONTENT_TYPE',
        message: 'Content-Encoding gzip is not supported; send the body uncompressed',
      },
    )
    expect((await app.inject(`/tasks/${body.id}`)).statusCode).toBe(404)
    // UTF-8, named or not, is read as sent.
    const named = await post(JSON.stringify(body), {
      'content-type': 'application/json; charset=UTF-8',
    })
    expect(named.json().status.message.parts).toEqual([{ type: 'text', text: 'café' }])
  })

  it('answers 400 INVALID_REQUEST, naming the keys, to a JSON body that tries prototype pollution', async () => {
    app = await testApp()
    for (const body of [
      '{"__proto__": {"admin": true}}',
      '{"a": {"constructor": {"prototype": {}}}}',
    ]) {
      expectError(await post(body), 400, {
        code: 'INVALID_REQUEST',
        message:
          'the request body has a "__proto__" or "constructor.prototype" key, which this server refuses',
      })
    }
  })

  it('says in plain words what is wrong with the body or one of its fields', async () => {
    app = await testApp()
    const noBody = await app.inject({ method: 'POST', url: '/tasks/send' })
    expectError(noBody, 400, {
      code: 'INVALID_REQUEST',
      message: 'the request body is empty; send a JSON object',
    })
    expectError(await post('[1]'), 400, {
      code: 'INVALID_REQUEST',
      message: 'the request body must be a JSON object',
    })
    expectError(await post('null'), 400, {
      code: 'INVALID_REQUEST',
      message: 'the request body is null; send a JSON object',
    })
    const body = sendBody('hi')
    body.message.parts = [{ type: 'text', text: 5 } as never]
    expectError(await post(body), 400, {
      code: 'INVALID_REQUEST',
      message: 'message.parts[0].text: must be a string',
      field: 'message.parts[0].text',
    })
  })

  it('answers 415 to a body that is not application/json', async () => {
    app = await testApp()
    const response = await app.inject({
      method: 'POST',
      url: '/tasks/send',
      headers: { 'content-type': 'text/plain' },
      payload: 'hello',
    })
    expectError(response, 415, {
      code: 'UNSUPPORTED_CONTENT_TYPE',
      message: 'Content-Type text/plain is not supported; send application/json',
    })
  })

  it('answers 400 naming the body when it is empty', async () => {
    app = await testApp()
    expectError(await post(''), 400, { code: 'INVALID_REQUEST' })
  })

  it('answers 413 in JSON to a body over BODY_LIMIT', async () => {
    app = await testApp({ BODY_LIMIT: '2048' })
    expectError(await post(sendBody('x'.repeat(4096))), 413, {
      code: 'PAYLOAD_TOO_LARGE',
      limit: 2048,
      message: 'The request body exceeds the limit of 2048 bytes',
    })
  })

  it('answers 400 naming the field when the task id is not a UUID', async () => {
    app = await testApp()
    expectError(await post({ ...sendBody('hi'), id: 'task-1234' }), 400, {
      code: 'INVALID_REQUEST',
      field: 'id',
      message: 'id: must be a UUID',
    })
  })

  it('answers 400 naming the field when the message is missing', async () => {
    app = await testApp()
    expectError(await post({ id: sendBody('x').id }), 400, {
      code: 'INVALID_REQUEST',
      field: 'message',
    })
  })

  it('answers 400 to a part of an unexpected type', async () => {
    app = await testApp()
    const body = {
      ...sendBody('x'),
      message: { role: 'user', parts: [{ type: 'video', url: 'x' }] },
    }
    expectError(await post(body), 400, {
      code: 'INVALID_REQUEST',
      field: 'message.parts[0].type',
    })
  })

  it('says a part in A2A 0.3’s shape ({kind}) names its type "type" here', async () => {
    app = await testApp()
    const body = {
      ...sendBody('x'),
      message: { role: 'user', parts: [{ kind: 'text', text: 'hi' }] },
    }
    expectError(await post(body), 400, {
      code: 'INVALID_REQUEST',
      field: 'message.parts[0].type',
      message:
        'message.parts[0].type: a part has type "text", "data" or "file" (these endpoints name it "type"; "kind" is the A2A 0.3 name, used at /a2a/jsonrpc)',
    })
  })

  it('answers 400 to a message with no parts', async () => {
    app = await testApp()
    const body = { ...sendBody('x'), message: { role: 'user', parts: [] } }
    expectError(await post(body), 400, {
      code: 'INVALID_REQUEST',
      field: 'message.parts',
      message: 'message.parts: a message needs at least one part',
    })
  })

  it('answers 400 to a message that claims to come from the agent', async () => {
    app = await testApp()
    const body = {
      ...sendBody('x'),
      message: { role: 'agent', parts: [{ type: 'text', text: 'hi' }] },
    }
    expectError(await post(body), 400, { code: 'INVALID_REQUEST', field: 'message.role' })
  })

  it('answers 400 to a file part with both bytes and uri', async () => {
    app = await testApp()
    const file = { bytes: 'aGVsbG8=', uri: 'https://example.com/a.txt' }
    const body = { ...sendBody('x'), message: { role: 'user', parts: [{ type: 'file', file }] } }
    expectError(await post(body), 400, { code: 'INVALID_REQUEST', field: 'message.parts[0].file' })
  })

  it('answers 400 to file bytes that are not base64', async () => {
    app = await testApp()
    const body = {
      ...sendBody('x'),
      message: { role: 'user', parts: [{ type: 'file', file: { bytes: 'not base64!' } }] },
    }
    expectError(await post(body), 400, {
      code: 'INVALID_REQUEST',
      field: 'message.parts[0].file.bytes',
    })
    // What `base64` prints, lines broken at 76 characters: the message says what to change.
    const wrapped = `${Buffer.alloc(60).toString('base64').slice(0, 76)}\n${'AAAA'}`
    body.message.parts[0]!.file.bytes = wrapped
    expectError(await post(body), 400, {
      code: 'INVALID_REQUEST',
      message:
        'message.parts[0].file.bytes: must be base64 on one line (no line breaks or spaces; base64 -w0)',
    })
  })

  it('answers 400 LIMIT_EXCEEDED to more parts than MAX_PARTS', async () => {
    app = await testApp({ MAX_PARTS: '3' })
    const parts = Array.from({ length: 4 }, (_, i) => ({ type: 'text', text: `part ${i}` }))
    const body = { ...sendBody('x'), message: { role: 'user', parts } }
    expectError(await post(body), 400, {
      code: 'LIMIT_EXCEEDED',
      field: 'message.parts',
      limit: 3,
      message: 'message.parts: the number of parts exceeds the limit of 3',
    })
    const get = await app.inject(`/tasks/${body.id}`)
    expect(get.statusCode).toBe(404)
  })

  it('answers 400 LIMIT_EXCEEDED to a text longer than MAX_TEXT_LENGTH', async () => {
    app = await testApp({ MAX_TEXT_LENGTH: '10' })
    expectError(await post(sendBody('x'.repeat(11))), 400, {
      code: 'LIMIT_EXCEEDED',
      field: 'message.parts[0].text',
    })
  })

  it('answers 400 LIMIT_EXCEEDED to an inline file larger than MAX_FILE_BYTES', async () => {
    app = await testApp({ MAX_FILE_BYTES: '8' })
    const body = {
      ...sendBody('x'),
      message: { role: 'user', parts: [{ type: 'file', file: { bytes: 'aGVsbG8gd29ybGQ=' } }] },
    }
    expectError(await post(body), 400, {
      code: 'LIMIT_EXCEEDED',
      field: 'message.parts[0].file.bytes',
    })
  })

  it('answers 400 when metadata.skillId is not a string', async () => {
    app = await testApp()
    expectError(await post(sendBody('x', { metadata: { skillId: 42 } })), 400, {
      code: 'INVALID_REQUEST',
      field: 'metadata.skillId',
    })
  })

  it('answers 404 in JSON to an unknown route', async () => {
    app = await testApp()
    const response = await app.inject('/nope')
    expectError(response, 404, { code: 'ROUTE_NOT_FOUND', message: 'No route for GET /nope' })
  })

  it('echoes a sane x-request-id and replaces an unsafe one', async () => {
    app = await testApp()
    const sane = await app.inject({ url: '/nope', headers: { 'x-request-id': 'abc-123' } })
    expect(sane.headers['x-request-id']).toBe('abc-123')
    const unsafe = await app.inject({
      url: '/nope',
      headers: { 'x-request-id': 'a b\u0001<script>' },
    })
    expect(unsafe.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
  })
})
