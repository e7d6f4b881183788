/**
 * The bearer proxy in front of a real server: every request arrives with the token, bodies and
 * SSE streams pass through as sent, and an unreachable target is a 502.
 */
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { startBearerProxy } from '../../src/conformance/bearer-proxy.js'

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

/** A target that answers with what it received, or an SSE stream of three frames. */
async function target() {
  const server = createServer((request, response) => {
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => (body += chunk))
    request.on('end', () => {
      if (request.url === '/stream') {
        response.writeHead(200, { 'content-type': 'text/event-stream' })
        let n = 0
        const timer = setInterval(() => {
          response.write(`id: ${++n}\ndata: {"n":${n}}\n\n`)
          if (n === 3) {
            clearInterval(timer)
            response.end()
          }
        }, 10)
        return
      }
      response.writeHead(201, { 'content-type': 'application/json', 'x-seen': 'yes' })
      response.end(
        JSON.stringify({
          method: request.method,
          url: request.url,
          authorization: request.headers.authorization,
          contentType: request.headers['content-type'],
          body,
        }),
      )
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  closers.push(() => new Promise((resolve) => server.close(() => resolve())))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

async function proxyTo(url: string) {
  const proxy = await startBearerProxy({ target: url, token: 'the-token', port: 0 })
  closers.push(() => proxy.close())
  return proxy.url
}

describe('the bearer proxy', () => {
  it('forwards every request with the token, and the answer as it came', async () => {
    const proxy = await proxyTo(await target())
    const response = await fetch(`${proxy}/a2a/jsonrpc?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer other' },
      body: '{"jsonrpc":"2.0"}',
    })
    expect(response.status).toBe(201)
    expect(response.headers.get('x-seen')).toBe('yes')
    expect(await response.json()).toEqual({
      method: 'POST',
      url: '/a2a/jsonrpc?x=1',
      authorization: 'Bearer the-token',
      contentType: 'application/json',
      body: '{"jsonrpc":"2.0"}',
    })
  })

  it('passes an SSE stream through to its end', async () => {
    const proxy = await proxyTo(await target())
    const response = await fetch(`${proxy}/stream`)
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    expect(await response.text()).toBe(
      'id: 1\ndata: {"n":1}\n\nid: 2\ndata: {"n":2}\n\nid: 3\ndata: {"n":3}\n\n',
    )
  })

  it('answers 502 when the target cannot be reached', async () => {
    const proxy = await proxyTo('http://127.0.0.1:1')
    const response = await fetch(`${proxy}/.well-known/agent-card.json`)
    expect(response.status).toBe(502)
    expect(await response.text()).toContain('the proxy cannot reach http://127.0.0.1:1')
  })
})
