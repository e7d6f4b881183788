/**
 * MAX_TASKS_IN_MEMORY over real HTTP, as a user meets it: a store full of tasks waiting for
 * input refuses a new task with 503 in each dialect's shape and creates nothing; once a task
 * has ended, a new one takes its place, and the ended task is gone before its retention is up.
 */
import { Writable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import { pino } from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { listening, testApp } from '../helpers/app.js'
import { authHeaders } from '../helpers/auth.js'
import { sendBody } from '../helpers/bodies.js'

let app: FastifyInstance | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

const post = (url: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...authHeaders(), ...headers },
    body: JSON.stringify(body),
  })

/** A diff whose language the review cannot tell: the task waits for the user's answer. */
const askingReview = () =>
  sendBody('--- a/snippet\n+++ b/snippet\n@@ -1 +1,2 @@\n x = 1\n+y = eval(input())\n')

describe('MAX_TASKS_IN_MEMORY', () => {
  it('refuses a new task with 503 while every task held is open, then makes room', async () => {
    const lines: { level: number; msg: string }[] = []
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const line of chunk.toString().split('\n').filter(Boolean)) {
            lines.push(JSON.parse(line) as { level: number; msg: string })
          }
          done()
        },
      }),
    )
    app = await testApp({ MAX_TASKS_IN_MEMORY: '2' }, { logger })
    const url = await listening(app)
    const waiting = [askingReview(), askingReview()]
    for (const body of waiting) {
      const sent = await post(url, '/tasks/send', body)
      expect(await sent.json()).toMatchObject({ status: { state: 'input-required' } })
    }

    const refused = sendBody('hello', { metadata: { skillId: 'echo' } })
    const seed = await post(url, '/tasks/send', refused)
    expect(seed.status).toBe(503)
    expect(seed.headers.get('retry-after')).toBe('1')
    expect(await seed.json()).toEqual({
      error: {
        code: 'SERVICE_UNAVAILABLE',
        message:
          'The server holds as many tasks as it may, and none of them has ended; retry later',
        retryAfterSeconds: 1,
        requestId: expect.any(String),
      },
    })
    expect((await fetch(`${url}/tasks/${refused.id}`, { headers: authHeaders() })).status).toBe(404)
    const message = { messageId: 'm-full', role: 'ROLE_USER', parts: [{ text: 'x' }] }
    const rpc = await post(
      url,
      '/a2a/jsonrpc',
      { jsonrpc: '2.0', id: 7, method: 'SendMessage', params: { message } },
      { 'a2a-version': '1.0' },
    )
    const retryInfo = {
      '@type': 'type.googleapis.com/google.rpc.RetryInfo',
      retryDelay: '1s',
    }
    expect(rpc.status).toBe(503)
    expect(rpc.headers.get('retry-after')).toBe('1')
    expect(await rpc.json()).toMatchObject({
      id: 7,
      error: { code: -32603, data: [{ reason: 'SERVICE_UNAVAILABLE' }, retryInfo] },
    })
    const rest = await post(url, '/a2a/rest/message:send', { message })
    expect(rest.status).toBe(503)
    expect(rest.headers.get('retry-after')).toBe('1')
    expect(await rest.json()).toMatchObject({
      error: { code: 503, status: 'UNAVAILABLE', details: [{}, retryInfo] },
    })
    // A refusal the server chose is a warning (the store's notice says why), never a fault.
    const refusals = lines.filter((line) => line.msg?.startsWith('request refused'))
    expect(refusals).toHaveLength(3)
    expect(refusals.every((line) => line.level === 40)).toBe(true)
    expect(lines.filter((line) => line.msg === 'request failed')).toEqual([])

    // The first review gets its answer and ends: the next task takes its place.
    const [ended, open] = waiting
    const answered = await post(url, `/tasks/${ended!.id}/send`, {
      message: { role: 'user', parts: [{ type: 'text', text: 'python' }] },
    })
    expect(await answered.json()).toMatchObject({ status: { state: 'completed' } })
    const admitted = await post(url, '/tasks/send', refused)
    expect(admitted.status).toBe(200)
    expect(await admitted.json()).toMatchObject({ id: refused.id, status: { state: 'completed' } })
    const read = (id: string) => fetch(`${url}/tasks/${id}`, { headers: authHeaders() })
    expect((await read(ended!.id)).status).toBe(404)
    expect(await (await read(open!.id)).json()).toMatchObject({
      status: { state: 'input-required' },
    })
  })
})
