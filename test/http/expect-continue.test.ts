/**
 * `Expect: 100-continue` over a real socket, as curl sends it before a body over 1 MB: a body
 * the server would refuse as too large is refused before the client sends it (413 in the
 * dialect's format, no `100 Continue`), so the refusal cannot be lost to a reset; a body within
 * the limit gets its `100 Continue` and is served.
 */
import { connect } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bearer } from '../helpers/auth.js'
import { listening, testApp } from '../helpers/app.js'
import { sendBody } from '../helpers/bodies.js'

const LIMIT = 4096

let app: FastifyInstance
let port = 0

beforeAll(async () => {
  app = await testApp({ BODY_LIMIT: String(LIMIT) })
  port = Number(new URL(await listening(app)).port)
})
afterAll(() => app.close())

/**
 * Sends the head of a POST with `Expect: 100-continue`, then the body only once the server says
 * `100 Continue`, as curl does. Resolves with everything the server wrote before it closed, or
 * within `ms` of the last byte.
 */
function postExpectingContinue(path: string, body: string, headers: string[] = [], ms = 500) {
  return new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let received = ''
    let sentBody = false
    let idle: NodeJS.Timeout | undefined
    const done = () => {
      socket.destroy()
      resolve(received)
    }
    socket.setEncoding('utf8')
    socket.on('error', reject)
    socket.on('close', done)
    socket.on('data', (chunk: string) => {
      received += chunk
      if (!sentBody && received.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) {
        sentBody = true
        socket.write(body)
      }
      clearTimeout(idle)
      idle = setTimeout(done, ms)
    })
    socket.write(
      [
        `POST ${path} HTTP/1.1`,
        'Host: 127.0.0.1',
        `Authorization: ${bearer()}`,
        'Content-Type: application/json',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Expect: 100-continue',
        ...headers,
        '',
        '',
      ].join('\r\n'),
    )
  })
}

const statusLines = (raw: string) => raw.match(/^HTTP\/1\.1 \d{3} [^\r]*/gm) ?? []
const bodyOf = (raw: string) => JSON.parse(raw.slice(raw.lastIndexOf('\r\n\r\n') + 4)) as unknown

describe('Expect: 100-continue', () => {
  it('refuses a body over BODY_LIMIT before it is sent: 413 in the seed format, no 100 Continue', async () => {
    const raw = await postExpectingContinue(
      '/tasks/send',
      JSON.stringify(sendBody('x'.repeat(LIMIT))),
    )
    expect(statusLines(raw)).toEqual(['HTTP/1.1 413 Payload Too Large'])
    expect(bodyOf(raw)).toMatchObject({
      error: {
        code: 'PAYLOAD_TOO_LARGE',
        message: `The request body exceeds the limit of ${LIMIT} bytes`,
      },
    })
  })

  it('refuses it in the JSON-RPC format on the JSON-RPC endpoint', async () => {
    const raw = await postExpectingContinue('/a2a/jsonrpc', 'x'.repeat(LIMIT + 1), [
      'A2A-Version: 1.0',
    ])
    expect(statusLines(raw)).toEqual(['HTTP/1.1 413 Payload Too Large'])
    expect(bodyOf(raw)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } })
  })

  it('lets a body within the limit through: 100 Continue, then the answer', async () => {
    const raw = await postExpectingContinue(
      '/tasks/send',
      JSON.stringify(sendBody('hello', { metadata: { skillId: 'echo' } })),
    )
    expect(statusLines(raw)).toEqual(['HTTP/1.1 100 Continue', 'HTTP/1.1 200 OK'])
    expect(bodyOf(raw)).toMatchObject({ status: { state: 'completed' } })
  })
})
