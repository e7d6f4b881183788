/**
 * MAX_STREAMS_PER_CALLER over real HTTP: a caller's stream past the limit is refused in its
 * dialect's shape before any task is created; other callers are not held back; a closed stream
 * frees its slot.
 */
import type { ClientRequest } from 'node:http'
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { listening, testApp } from '../helpers/app.js'
import { authHeaders, bearer } from '../helpers/auth.js'
import { sendBody } from '../helpers/bodies.js'
import { slowSkill } from '../helpers/skills.js'
import { openStream } from '../helpers/sse.js'

let app: FastifyInstance | undefined
const opened: ClientRequest[] = []
afterEach(async () => {
  for (const request of opened.splice(0)) request.destroy()
  await app?.close()
  app = undefined
})

/** Opens a seed stream and waits for its first frame. */
async function hold(url: string, headers: Record<string, string> = {}) {
  const stream = await openStream(`${url}/tasks/sendSubscribe`, sendBody('wait'), headers)
  opened.push(stream.request)
  await stream.frames.next()
  return stream.request
}

const post = (url: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...authHeaders(), ...headers },
    body: JSON.stringify(body),
  })

describe('MAX_STREAMS_PER_CALLER', () => {
  it("refuses a caller's stream past the limit, in each dialect, and creates no task", async () => {
    app = await testApp({ MAX_STREAMS_PER_CALLER: '2' }, { skills: [slowSkill()] })
    const url = await listening(app)
    await hold(url)
    await hold(url)

    const refused = sendBody('one too many')
    const seed = await post(url, '/tasks/sendSubscribe', refused)
    expect(seed.status).toBe(429)
    expect(seed.headers.get('retry-after')).toBe('1')
    expect(await seed.json()).toMatchObject({
      error: {
        code: 'STREAM_LIMIT',
        message: expect.stringMatching(/^You already have 2 open streams/),
      },
    })
    const task = await fetch(`${url}/tasks/${refused.id}`, { headers: authHeaders() })
    expect(task.status).toBe(404)

    const rpc = await post(
      url,
      '/a2a/jsonrpc',
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'SendStreamingMessage',
        params: { message: { messageId: 'm-limit', role: 'ROLE_USER', parts: [{ text: 'x' }] } },
      },
      { 'a2a-version': '1.0' },
    )
    expect(await rpc.json()).toMatchObject({
      id: 1,
      error: {
        code: -32028,
        data: [
          expect.objectContaining({ reason: 'STREAM_LIMIT' }),
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1s' },
        ],
      },
    })
    expect(rpc.status).toBe(429)
    expect(rpc.headers.get('retry-after')).toBe('1')
    // A2A 0.3 JSON-RPC (no A2A-Version): the same refusal, the same HTTP status.
    const legacy = await post(url, '/a2a/jsonrpc', {
      jsonrpc: '2.0',
      id: 3,
      method: 'message/stream',
      params: {
        message: {
          messageId: 'm-limit-3',
          role: 'user',
          kind: 'message',
          parts: [{ kind: 'text', text: 'x' }],
        },
      },
    })
    expect(legacy.status).toBe(429)
    expect(legacy.headers.get('retry-after')).toBe('1')
    expect(await legacy.json()).toMatchObject({
      id: 3,
      error: { code: -32028, data: { limit: 2, retryAfterSeconds: 1 } },
    })
    const rest = await post(url, '/a2a/rest/message:stream', {
      message: { messageId: 'm-limit-2', role: 'ROLE_USER', parts: [{ text: 'x' }] },
    })
    expect(rest.status).toBe(429)
    expect(rest.headers.get('retry-after')).toBe('1')
    expect(await rest.json()).toMatchObject({
      error: { status: 'RESOURCE_EXHAUSTED' },
    })
    // Neither message made a task.
    const listed = await post(
      url,
      '/a2a/jsonrpc',
      { jsonrpc: '2.0', id: 2, method: 'ListTasks', params: {} },
      { 'a2a-version': '1.0' },
    )
    expect(((await listed.json()) as { result: { tasks: unknown[] } }).result.tasks).toHaveLength(2)
  })

  it('holds each caller to its own limit, and frees a slot when a stream closes', async () => {
    app = await testApp({ MAX_STREAMS_PER_CALLER: '1' }, { skills: [slowSkill()] })
    const url = await listening(app)
    const first = await hold(url)
    // Another caller is not held back by the first one's streams.
    await hold(url, { authorization: bearer({ sub: 'someone-else' }) })
    expect((await post(url, '/tasks/sendSubscribe', sendBody('no'))).status).toBe(429)

    first.destroy()
    await expect.poll(() => app!.openStreams.count('test-user'), { timeout: 2000 }).toBe(0)
    await hold(url)
  })
})
