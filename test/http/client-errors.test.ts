/**
 * Requests that Node's HTTP parser refuses before any route sees them, over a real socket: each
 * is answered in the error format of the dialect its request line names (the brief's when none
 * can be read), never in Fastify's own body, and its connection is closed.
 */
import { connect } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listening, testApp } from '../helpers/app.js'

let app: FastifyInstance
let port: number
beforeAll(async () => {
  app = await testApp()
  port = Number(new URL(await listening(app)).port)
})
afterAll(() => app.close())

interface RawReply {
  status: number
  headers: string
  body: unknown
}

/** Writes `bytes` on a new connection and reads until the server closes it. */
function raw(bytes: string): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes))
    let reply = ''
    socket.setEncoding('latin1').on('data', (chunk: string) => (reply += chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      const split = reply.indexOf('\r\n\r\n')
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(reply)?.[1]),
        headers: reply.slice(0, split).toLowerCase(),
        body: JSON.parse(reply.slice(split + 4)),
      })
    })
  })
}

/** A request whose Content-Length is not a number: refused by the parser, request line read. */
const badLength = (path: string, ...headers: string[]): string =>
  [`POST ${path} HTTP/1.1`, 'Host: localhost', ...headers, 'Content-Length: ten', '', ''].join(
    '\r\n',
  )

describe('requests the HTTP parser refuses', () => {
  it('answers bytes that are not HTTP with 400 MALFORMED_HTTP in the brief’s format', async () => {
    const reply = await raw('HELLO THERE\r\n\r\n')
    expect(reply.status).toBe(400)
    expect(reply.headers).toContain('content-type: application/json; charset=utf-8')
    expect(reply.headers).toContain('connection: close')
    expect(reply.body).toEqual({
      error: {
        code: 'MALFORMED_HTTP',
        message: 'The request is not valid HTTP/1.1',
        requestId: expect.any(String),
      },
    })
  })

  it('answers on the JSON-RPC path with a JSON-RPC error of the version asked for', async () => {
    const v10 = await raw(badLength('/a2a/jsonrpc', 'A2A-Version: 1.0'))
    expect(v10.status).toBe(400)
    expect(v10.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: 'The request is not valid HTTP/1.1',
        data: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'INVALID_REQUEST',
            domain: 'a2a-protocol.org',
          },
        ],
      },
    })
    // No A2A-Version: 0.3, whose error has no ErrorInfo.
    const v03 = await raw(badLength('/a2a/jsonrpc'))
    expect(v03.status).toBe(400)
    expect(v03.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'The request is not valid HTTP/1.1' },
    })
  })

  it('answers on the HTTP+JSON path with a google.rpc.Status', async () => {
    const reply = await raw(badLength('/a2a/rest/message:send'))
    expect(reply.status).toBe(400)
    expect(reply.body).toMatchObject({
      error: {
        code: 400,
        status: 'INVALID_ARGUMENT',
        message: 'The request is not valid HTTP/1.1',
      },
    })
  })

  it('answers headers past Node’s limit with 431 HEADERS_TOO_LARGE', async () => {
    const reply = await raw(
      ['GET /tasks/x HTTP/1.1', 'Host: localhost', `X-Big: ${'a'.repeat(20_000)}`, '', ''].join(
        '\r\n',
      ),
    )
    expect(reply.status).toBe(431)
    expect(reply.body).toEqual({
      error: {
        code: 'HEADERS_TOO_LARGE',
        message: 'The request headers are too large; send them under 16 KiB',
        requestId: expect.any(String),
      },
    })
  })

  it('keeps serving: a good request after them is answered', async () => {
    await raw('HELLO THERE\r\n\r\n')
    const card = await fetch(`http://127.0.0.1:${port}/.well-known/agent.json`)
    expect(card.status).toBe(200)
  })
})
