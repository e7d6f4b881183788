/**
 * What the client makes of a reply from something in front of the agent: a proxy or load
 * balancer that answers 503 or 429 itself, saying when to try again only in the HTTP
 * Retry-After header (seconds, or a date), with an error page of its own. In every dialect
 * the delay is the error's `retryAfterMs`, and a stream's reconnect waits at least that long.
 */
import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { A2AClientOptions, ResolveOptions, StreamEvent } from '../../src/index.js'
import { A2AClient, AgentError, StreamInterruptedError } from '../../src/index.js'
import { token } from '../helpers/auth.js'
import { startAgent } from './agents.js'
import { FrontProxy } from './front-proxy.js'

const dialects: [string, A2AClientOptions & ResolveOptions][] = [
  ['seed', { dialect: 'seed' }],
  ['jsonrpc-1.0', {}],
  ['jsonrpc-0.3', { protocolVersion: '0.3' }],
]

const busyPage = (title: string) => ({
  'content-type': 'text/html',
  body: `<!DOCTYPE html>\n<html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>\n`,
})

/** What a load balancer answers when it has no healthy agent to send the request to. */
const unavailable = (retryAfter: string) => {
  const { body, ...headers } = busyPage('503 Service Temporarily Unavailable')
  return { status: 503, headers: { ...headers, 'retry-after': retryAfter }, body }
}

let app: FastifyInstance
let proxy: FrontProxy
let url: string

beforeAll(async () => {
  proxy = new FrontProxy()
  url = await proxy.listen()
  let target: string
  ;({ app, url: target } = await startAgent({}, url))
  proxy.target = target
})
afterAll(async () => {
  await proxy.close()
  await app.close()
})
beforeEach(() => {
  proxy.replies = []
  proxy.requests = []
})

describe.each(dialects)('a %s agent behind a proxy that refuses a call', (_dialect, options) => {
  const connect = () => A2AClient.connect(url, { ...options, token: token() })

  it('takes the delay of a 503 from its Retry-After header, in seconds', async () => {
    const client = await connect()
    proxy.replies = [unavailable('7')]
    const error = await client.get(randomUUID()).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AgentError)
    expect(error).toMatchObject({ status: 503, retryAfterMs: 7_000, busy: true })
  })

  it('takes the delay of a 429 from its Retry-After header, as an HTTP date', async () => {
    const client = await connect()
    const at = new Date(Date.now() + 30_000)
    proxy.replies = [
      {
        status: 429,
        headers: { 'content-type': 'text/plain', 'retry-after': at.toUTCString() },
        body: 'Too Many Requests\n',
      },
    ]
    const error = await client.send({ skill: 'echo', text: 'hi' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AgentError)
    expect(error).toMatchObject({ status: 429, message: 'Too Many Requests', busy: true })
    // The date has whole seconds: up to one less than asked for.
    const { retryAfterMs } = error as AgentError
    expect(retryAfterMs).toBeGreaterThan(28_000)
    expect(retryAfterMs).toBeLessThanOrEqual(30_000)
  })

  it('says that an HTML error page came from something in front of the agent, with its status', async () => {
    const client = await connect()
    const { body, ...headers } = busyPage('502 Bad Gateway')
    proxy.replies = [{ status: 502, headers, body }]
    const error = await client.send({ skill: 'echo', text: 'hi' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AgentError)
    expect(error).toMatchObject({
      status: 502,
      code: 502,
      message:
        'HTTP 502 from something in front of the agent (a proxy, a web server): an HTML page, "502 Bad Gateway"',
    })
    proxy.replies = [
      {
        status: 503,
        headers: { 'content-type': 'text/html' },
        body: '<html><body><p>down</p></body></html>',
      },
    ]
    const untitled = await client.get(randomUUID()).catch((e: unknown) => e)
    expect((untitled as Error).message).toBe(
      'HTTP 503 from something in front of the agent (a proxy, a web server): an HTML page',
    )
  })

  it("keeps the agent's own delay when its error says one, whatever the header says", async () => {
    const client = await connect()
    proxy.replies = [
      {
        status: 503,
        headers: { 'content-type': 'application/json', 'retry-after': '60' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32603, message: 'Try again shortly', data: { retryAfterSeconds: 2 } },
        }),
      },
    ]
    const error = await client.get(randomUUID()).catch((e: unknown) => e)
    expect(error).toMatchObject({ status: 503, retryAfterMs: 2_000, message: 'Try again shortly' })
  })

  it('waits as long as the Retry-After of a refused reconnect asks before the next', async () => {
    const client = await A2AClient.connect(url, {
      ...options,
      token: token(),
      reconnect: { retries: 5, initialDelayMs: 20, maxDelayMs: 40 },
    })
    proxy.dropNextStream(unavailable('1'))
    const events: StreamEvent[] = []
    for await (const event of client.stream({
      skill: 'steps',
      data: { steps: 4, delayMs: 100 },
    })) {
      events.push(event)
    }
    expect(events.at(-1)).toMatchObject({ status: { state: 'completed' } })

    const refused = proxy.requests.findIndex((request) => request.answered === 503)
    expect(refused).toBeGreaterThan(0)
    const next = proxy.requests[refused + 1]!
    expect(next.answered).toBeUndefined()
    expect(next.at - proxy.requests[refused]!.at).toBeGreaterThanOrEqual(1_000)
  })

  it('ends the stream at once when a refused reconnect asks for longer than the client waits', async () => {
    const client = await A2AClient.connect(url, {
      ...options,
      token: token(),
      reconnect: { retries: 5, initialDelayMs: 20, maxDelayMs: 40, maxRetryAfterMs: 5_000 },
    })
    proxy.dropNextStream(unavailable('3600'))
    const events: StreamEvent[] = []
    const started = Date.now()
    const error = await (async () => {
      for await (const event of client.stream({
        skill: 'steps',
        data: { steps: 4, delayMs: 100 },
      })) {
        events.push(event)
      }
    })().catch((e: unknown) => e)

    expect(Date.now() - started).toBeLessThan(5_000)
    expect(events.length).toBeGreaterThan(0)
    expect(error).toBeInstanceOf(StreamInterruptedError)
    expect((error as StreamInterruptedError).cause).toMatchObject({
      status: 503,
      retryAfterMs: 3_600_000,
    })
    // No reconnect followed the refusal.
    const refused = proxy.requests.findIndex((request) => request.answered === 503)
    expect(refused).toBeGreaterThan(0)
    expect(proxy.requests.slice(refused + 1)).toEqual([])
  })
})

describe('a Retry-After header', () => {
  it('is no delay on a reply other than 429 or 5xx, nor when it is neither seconds nor a date', async () => {
    const client = await A2AClient.connect(url, { dialect: 'seed', token: token() })
    proxy.replies = [
      { status: 400, headers: { 'retry-after': '5' }, body: 'Bad Request' },
      { status: 503, headers: { 'retry-after': '1.5' }, body: 'Service Unavailable' },
      { status: 503, headers: { 'retry-after': 'soon' }, body: 'Service Unavailable' },
    ]
    for (const status of [400, 503, 503]) {
      const error = await client.get(randomUUID()).catch((e: unknown) => e)
      expect(error).toMatchObject({ status, retryAfterMs: undefined })
    }
  })

  it('of a date already past is no wait at all', async () => {
    const client = await A2AClient.connect(url, { dialect: 'seed', token: token() })
    proxy.replies = [
      {
        status: 503,
        headers: { 'retry-after': new Date(Date.now() - 60_000).toUTCString() },
        body: '',
      },
    ]
    const error = await client.get(randomUUID()).catch((e: unknown) => e)
    expect(error).toMatchObject({ status: 503, retryAfterMs: 0, busy: true })
  })
})
