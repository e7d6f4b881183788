/** Rate limits (issue 4 §4): one budget per caller, answered with 429 in each dialect's format. */
import { randomUUID } from 'node:crypto'
import { Writable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import { pino } from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app.js'
import { configFrom } from '../../src/config.js'
import { echoSkill } from '../../src/skills/echo/index.js'
import { testApp } from '../helpers/app.js'
import { TEST_SECRET, authHeaders } from '../helpers/auth.js'
import { rpc } from '../helpers/jsonrpc.js'

const json = { 'content-type': 'application/json' }

/** The app with a log we can read. */
async function appWithLog(env: Record<string, string>) {
  const lines: Record<string, unknown>[] = []
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        lines.push(JSON.parse(line) as Record<string, unknown>)
      }
      done()
    },
  })
  const app = await buildApp(
    configFrom({
      SHUTDOWN_GRACE_MS: '100',
      AUDIT_SINK: 'off',
      AUTH_JWT_SECRET: TEST_SECRET,
      ...env,
    }),
    {
      skills: [echoSkill],
      logger: pino({ level: 'info' }, sink),
    },
  )
  await app.ready()
  return { app, lines }
}

const getSeedTask = (app: FastifyInstance, headers: Record<string, string> = {}) =>
  app.inject({ url: `/tasks/${randomUUID()}`, headers })

describe('rate limits', () => {
  let app: FastifyInstance
  afterEach(() => app.close())

  it('counts down x-ratelimit-remaining and refuses the request over the budget with 429', async () => {
    app = await testApp({ RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_MS: '60000' })
    const first = await getSeedTask(app)
    expect(first.statusCode).toBe(404)
    expect(first.headers).toMatchObject({
      'x-ratelimit-limit': '2',
      'x-ratelimit-remaining': '1',
      'x-ratelimit-reset': '60',
    })
    expect((await getSeedTask(app)).headers['x-ratelimit-remaining']).toBe('0')
    const refused = await getSeedTask(app)
    expect(refused.statusCode).toBe(429)
    expect(refused.headers).toMatchObject({
      'retry-after': '60',
      'x-ratelimit-limit': '2',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': '60',
    })
  })

  it('answers the brief dialect with {error: {code: RATE_LIMITED}}', async () => {
    app = await testApp({ RATE_LIMIT_MAX: '1' })
    await getSeedTask(app)
    const refused = await app.inject({
      method: 'POST',
      url: '/tasks/send',
      headers: { ...json, 'x-request-id': 'req-429' },
      payload: {},
    })
    expect(refused.statusCode).toBe(429)
    expect(refused.json()).toEqual({
      error: {
        code: 'RATE_LIMITED',
        message: 'Rate limit exceeded: at most 1 requests per window; retry in 60 s',
        limit: 1,
        retryAfterSeconds: 60,
        requestId: 'req-429',
      },
    })
  })

  it('answers A2A 1.0 JSON-RPC with HTTP 429 and a -32010 error, id null (refused before the body is read)', async () => {
    app = await testApp({ RATE_LIMIT_MAX: '1' })
    await rpc(app, 'GetTask', { id: randomUUID() })
    const refused = await rpc(app, 'GetTask', { id: randomUUID() }, { id: 'call-7' })
    expect(refused.status).toBe(429)
    expect(refused.headers['retry-after']).toBe('60')
    expect(refused.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32010,
        message: 'Rate limit exceeded: at most 1 requests per window; retry in 60 s',
        data: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'RATE_LIMIT_EXCEEDED',
            domain: 'a2a-protocol.org',
            metadata: { limit: '1', retryAfterSeconds: '60' },
          },
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '60s' },
        ],
      },
    })
  })

  it('answers A2A 0.3 JSON-RPC with HTTP 429 and a -32010 error whose data is a plain object', async () => {
    app = await testApp({ RATE_LIMIT_MAX: '1' })
    await rpc(app, 'tasks/get', { id: randomUUID() }, { version: null })
    const refused = await rpc(app, 'tasks/get', { id: randomUUID() }, { version: null, id: 9 })
    expect(refused.status).toBe(429)
    expect(refused.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32010,
        message: 'Rate limit exceeded: at most 1 requests per window; retry in 60 s',
        data: { limit: 1, retryAfterSeconds: 60 },
      },
    })
  })

  it('answers the 1.0 HTTP+JSON binding with a RESOURCE_EXHAUSTED google.rpc.Status', async () => {
    app = await testApp({ RATE_LIMIT_MAX: '1' })
    await app.inject('/a2a/rest/tasks')
    const refused = await app.inject('/a2a/rest/tasks')
    expect(refused.statusCode).toBe(429)
    expect(refused.headers['retry-after']).toBe('60')
    expect(refused.json()).toMatchObject({
      error: {
        code: 429,
        status: 'RESOURCE_EXHAUSTED',
        details: [
          { reason: 'RATE_LIMIT_EXCEEDED', metadata: { limit: '1' } },
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '60s' },
        ],
      },
    })
  })

  it('spends one budget across dialects and unknown routes', async () => {
    app = await testApp({ RATE_LIMIT_MAX: '3' })
    await getSeedTask(app)
    await rpc(app, 'GetTask', { id: randomUUID() })
    expect((await app.inject('/no/such/route')).headers['x-ratelimit-remaining']).toBe('0')
    expect((await app.inject('/a2a/rest/tasks')).statusCode).toBe(429)
  })

  it('never limits the liveness and readiness probes', async () => {
    app = await testApp({ RATE_LIMIT_MAX: '1' })
    await getSeedTask(app)
    expect((await getSeedTask(app)).statusCode).toBe(429)
    for (let i = 0; i < 5; i++) {
      const [live, ready] = await Promise.all([app.inject('/healthz'), app.inject('/readyz')])
      expect([live.statusCode, ready.statusCode]).toEqual([200, 200])
      expect(live.headers['x-ratelimit-limit']).toBeUndefined()
    }
  })

  it('gives the public Agent Cards a per-address budget of their own', async () => {
    app = await testApp({ RATE_LIMIT_MAX: '1', RATE_LIMIT_DISCOVERY_MAX: '2' })
    await getSeedTask(app)
    expect((await getSeedTask(app)).statusCode).toBe(429)
    const cards = [
      await app.inject('/.well-known/agent.json'),
      await app.inject('/.well-known/agent.json'),
      await app.inject('/.well-known/agent.json'),
    ]
    expect(cards.map((card) => card.statusCode)).toEqual([200, 200, 429])
    expect(cards[0]!.headers['x-ratelimit-limit']).toBe('2')
    expect(cards[2]!.json()).toMatchObject({ error: { code: 'RATE_LIMITED' } })
    const a2aCard = await app.inject('/.well-known/agent-card.json')
    expect(a2aCard.statusCode).toBe(429)
    expect(a2aCard.json()).toMatchObject({ error: { code: 429, status: 'RESOURCE_EXHAUSTED' } })
  })

  it('leaves the cards unlimited with RATE_LIMIT_DISCOVERY_MAX=0', async () => {
    app = await testApp({ RATE_LIMIT_MAX: '1', RATE_LIMIT_DISCOVERY_MAX: '0' })
    for (let i = 0; i < 4; i++) {
      const card = await app.inject('/.well-known/agent-card.json')
      expect(card.statusCode).toBe(200)
      expect(card.headers['x-ratelimit-limit']).toBeUndefined()
    }
  })

  it('is off with RATE_LIMIT_MAX=0', async () => {
    app = await testApp({ RATE_LIMIT_MAX: '0' })
    for (let i = 0; i < 5; i++) {
      const response = await getSeedTask(app)
      expect(response.statusCode).toBe(404)
      expect(response.headers['x-ratelimit-limit']).toBeUndefined()
    }
  })

  it('keys an authenticated caller by subject, so each caller has a budget of its own', async () => {
    const built = await appWithLog({ RATE_LIMIT_MAX: '1' })
    app = built.app
    expect((await getSeedTask(app, authHeaders({ sub: 'alice' }))).statusCode).toBe(404)
    expect((await getSeedTask(app, authHeaders({ sub: 'alice' }))).statusCode).toBe(429)
    expect((await getSeedTask(app, authHeaders({ sub: 'bob' }))).statusCode).toBe(404)
    // A request without a valid token spends its address's budget, apart from its callers'.
    expect((await getSeedTask(app)).statusCode).toBe(401)
    expect((await getSeedTask(app)).statusCode).toBe(429)
  })

  it('reports each refused request once, at info, with the request id and the key', async () => {
    const built = await appWithLog({ RATE_LIMIT_MAX: '1' })
    app = built.app
    await getSeedTask(app, authHeaders({ sub: 'alice' }))
    await getSeedTask(app, { ...authHeaders({ sub: 'alice' }), 'x-request-id': 'over-1' })
    const hits = built.lines.filter((line) => line.msg === 'rate limit exceeded')
    expect(hits).toEqual([
      expect.objectContaining({
        level: 30,
        requestId: 'over-1',
        rateLimitKey: 'caller:alice',
        limit: 1,
      }),
    ])
  })

  it('reports a refused card request too, though the card routes log only warnings', async () => {
    const built = await appWithLog({ RATE_LIMIT_DISCOVERY_MAX: '1' })
    app = built.app
    expect((await app.inject('/.well-known/agent.json')).statusCode).toBe(200)
    const refused = await app.inject({
      url: '/.well-known/agent.json',
      headers: { 'x-request-id': 'card-over-1' },
    })
    expect(refused.statusCode).toBe(429)
    const hits = built.lines.filter((line) => line.msg === 'rate limit exceeded')
    expect(hits).toEqual([
      expect.objectContaining({
        level: 30,
        requestId: 'card-over-1',
        rateLimitKey: 'card:ip:127.0.0.1',
        limit: 1,
      }),
    ])
  })

  it('lets requests through, with one warning, while the Redis counters are unreachable', async () => {
    // Nothing listens on port 1: every Redis command fails at once.
    const built = await appWithLog({
      RATE_LIMIT_MAX: '1',
      RATE_LIMIT_DISCOVERY_MAX: '1',
      REDIS_URL: 'redis://127.0.0.1:1',
    })
    app = built.app
    for (let i = 0; i < 4; i++) {
      const card = await app.inject('/.well-known/agent.json')
      expect(card.statusCode).toBe(200)
      expect(card.headers['x-ratelimit-limit']).toBeUndefined()
    }
    const warnings = built.lines.filter((line) =>
      String(line.msg).startsWith('rate-limit store unreachable'),
    )
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatchObject({ level: 40 })
  })
})
