/**
 * REQUEST_TIMEOUT_MS over a real socket: a client that trickles its body is answered 408 (in the
 * brief's error format) and its connection closed; a response that takes longer than the limit (a stream) is not cut.
 */
import { connect } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { listening, testApp } from '../helpers/app.js'
import { bearer } from '../helpers/auth.js'
import { sendBody } from '../helpers/bodies.js'
import { slowSkill } from '../helpers/skills.js'
import { openStream } from '../helpers/sse.js'

let app: FastifyInstance | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

/** Sends the headers and part of the body, then waits for what the server does. */
function trickle(url: string): Promise<{ reply: string; closedAfterMs: number }> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const started = Date.now()
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        [
          'POST /tasks/send HTTP/1.1',
          `Host: ${hostname}:${port}`,
          `Authorization: ${bearer()}`,
          'Content-Type: application/json',
          'Content-Length: 200',
          '',
          '{"id": "',
        ].join('\r\n'),
      )
    })
    let reply = ''
    socket.setEncoding('utf8').on('data', (chunk: string) => (reply += chunk))
    socket.on('error', reject)
    socket.on('close', () => resolve({ reply, closedAfterMs: Date.now() - started }))
  })
}

describe('REQUEST_TIMEOUT_MS', () => {
  it('answers 408 to a request whose body does not arrive in time, and closes the connection', async () => {
    app = await testApp({ REQUEST_TIMEOUT_MS: '400' })
    const { reply, closedAfterMs } = await trickle(await listening(app))
    expect(reply).toMatch(/^HTTP\/1\.1 408 /)
    // The brief's error format, as for every other refusal (a timeout keeps no request line).
    expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4))).toEqual({
      error: {
        code: 'REQUEST_TIMEOUT',
        message: 'The request did not arrive in full in time; send it again',
        requestId: expect.any(String),
      },
    })
    expect(closedAfterMs).toBeGreaterThanOrEqual(350)
    expect(closedAfterMs).toBeLessThan(3000)
  })

  it('lets a response take longer than the limit: a stream stays open', async () => {
    app = await testApp(
      { REQUEST_TIMEOUT_MS: '400', SSE_HEARTBEAT_MS: '200' },
      { skills: [slowSkill(1500)] },
    )
    const url = await listening(app)
    const { frames } = await openStream(`${url}/tasks/sendSubscribe`, sendBody('wait'))
    const states: string[] = []
    for await (const frame of frames) {
      states.push((JSON.parse(frame.data) as { status: { state: string } }).status.state)
    }
    expect(states.at(-1)).toBe('completed')
  })

  it('sets no limit with 0', async () => {
    app = await testApp({ REQUEST_TIMEOUT_MS: '0' })
    expect(app.server.requestTimeout).toBe(0)
  })
})
