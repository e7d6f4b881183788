/**
 * Every audit event over real HTTP, with the memory store (file sink) and with Redis (stream
 * sink). Authentication is simulated by a test hook that names the caller and tenant from
 * headers; the request-level events come from a route that exists only in this test.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { readAuditStream } from '../../src/audit/read.js'
import { verifyChain } from '../../src/audit/verify.js'
import { buildApp } from '../../src/app.js'
import { configFrom } from '../../src/config.js'
import {
  AuditEvent,
  auditAuthFailure,
  auditPermissionDenial,
  auditRateLimitHit,
} from '../../src/http/plugins/audit.js'
import { startTestAgent, translateSkill } from '../registry/agents.js'
import { sendBody } from '../helpers/bodies.js'
import { listening } from '../helpers/app.js'
import { slowSkill } from '../helpers/skills.js'
import { echoSkill } from '../../src/skills/echo/index.js'
import type { AppOverrides } from '../../src/app.js'
import { TEST_SECRET, bearer, token } from '../helpers/auth.js'
import { connectTestRedis, deleteKeysUnder, testPrefix } from '../helpers/redis.js'

/** Alice of tenant acme's token: it must never reach a record. */
const SECRET = token({ sub: 'alice', tenant: 'acme' })

/** The app with the test's stand-in for authentication and the test-only guarded route. */
async function auditedApp(
  env: Record<string, string>,
  overrides: AppOverrides = {},
): Promise<FastifyInstance> {
  const app = await buildApp(
    configFrom({
      LOG_LEVEL: 'silent',
      SHUTDOWN_GRACE_MS: '500',
      AUTH_JWT_SECRET: TEST_SECRET,
      ...env,
    }),
    overrides,
  )
  app.get('/test/guarded', async (request, reply) => {
    const { event } = request.query as { event: string }
    if (event === 'auth') {
      auditAuthFailure(request, 'expired')
      return reply.code(401).send({ error: 'unauthorized' })
    }
    if (event === 'scope') {
      auditPermissionDenial(request, { required: ['skill:review-pr'], skillId: 'review-pr' })
      return reply.code(403).send({ error: 'forbidden' })
    }
    auditRateLimitHit(request, { limit: 'requests', max: 100, windowMs: 60_000 })
    return reply.code(429).send({ error: 'too many requests' })
  })
  await app.ready()
  return app
}

/** A send, then the three request-level events, each with its own request id. */
async function exercise(url: string) {
  const headers = {
    'content-type': 'application/json',
    authorization: `Bearer ${SECRET}`,
  }
  const body = sendBody('hello audit', { metadata: { skillId: 'echo' } })
  const sent = await fetch(`${url}/tasks/send`, {
    method: 'POST',
    headers: { ...headers, 'x-request-id': 'req-send-1' },
    body: JSON.stringify(body),
  })
  expect(sent.status).toBe(200)
  expect(((await sent.json()) as { status: { state: string } }).status.state).toBe('completed')
  for (const [event, status] of [
    ['auth', 401],
    ['scope', 403],
    ['rate', 429],
  ] as const) {
    const reply = await fetch(`${url}/test/guarded?event=${event}&token=${SECRET}`, {
      headers: { ...headers, 'x-request-id': `req-${event}` },
    })
    expect(reply.status).toBe(status)
  }
  return body.id
}

/**
 * Every event type, in order. The turn's records carry the request that started it, whether it
 * ran in the request's process (memory) or a worker took it from the queue (Redis).
 */
function expectEveryEvent(records: any[], taskId: string) {
  const who = { caller: 'acme/alice', tenant: 'acme', audit: 1 }
  const ofTask = { ...who, taskId, skillId: 'echo', requestId: 'req-send-1' }
  expect(records).toEqual([
    expect.objectContaining({
      ...ofTask,
      event: AuditEvent.taskReceived,
      outcome: 'received',
      details: { contextId: expect.any(String), parts: 1 },
    }),
    expect.objectContaining({
      ...ofTask,
      event: AuditEvent.stateChange,
      outcome: 'working',
      details: { final: false },
    }),
    expect.objectContaining({
      ...ofTask,
      event: AuditEvent.artifactDelivered,
      outcome: 'delivered',
      details: { artifactId: expect.any(String), parts: 1, append: false, lastChunk: false },
    }),
    expect.objectContaining({
      ...ofTask,
      event: AuditEvent.stateChange,
      outcome: 'completed',
      details: { final: true },
    }),
    expect.objectContaining({
      ...who,
      requestId: 'req-auth',
      event: AuditEvent.authFailure,
      outcome: 'rejected',
      details: { method: 'GET', route: '/test/guarded', reason: 'expired' },
    }),
    expect.objectContaining({
      ...who,
      requestId: 'req-scope',
      skillId: 'review-pr',
      event: AuditEvent.permissionDenial,
      outcome: 'denied',
      details: { method: 'GET', route: '/test/guarded', required: ['skill:review-pr'] },
    }),
    expect.objectContaining({
      ...who,
      requestId: 'req-rate',
      event: AuditEvent.rateLimitHit,
      outcome: 'limited',
      details: {
        method: 'GET',
        route: '/test/guarded',
        limit: 'requests',
        max: 100,
        windowMs: 60_000,
      },
    }),
  ])
  for (const record of records) {
    expect(Date.parse(record.time)).not.toBeNaN()
    expect(record.hash).toMatch(/^[0-9a-f]{64}$/)
  }
  expect(records.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7])
  expect(verifyChain(records)).toMatchObject({ ok: true, count: 7, firstSeq: 1 })
}

describe('audit records with the memory store (file sink)', () => {
  let dir = ''
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'a2a-audit-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('records every event type with its fields, and never a token or Authorization', async () => {
    const file = join(dir, 'events.jsonl')
    const app = await auditedApp({ AUDIT_SINK: 'file', AUDIT_FILE: file })
    const taskId = await exercise(await listening(app))
    await app.close()
    const text = readFileSync(file, 'utf8')
    expectEveryEvent(
      text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
      taskId,
    )
    expect(text).not.toContain(SECRET)
    expect(text).not.toContain('secret-token')
    expect(text.toLowerCase()).not.toContain('authorization')
    expect(text).not.toContain('hello audit')
  })

  it('records what authentication, scopes and the running-task cap refuse, from real requests', async () => {
    const file = join(dir, 'refusals.jsonl')
    const app = await auditedApp(
      { AUDIT_SINK: 'file', AUDIT_FILE: file, MAX_ACTIVE_TASKS_PER_CALLER: '1', SEND_WAIT_MS: '0' },
      { skills: [echoSkill, slowSkill()] },
    )
    const url = await listening(app)
    const send = (authorization: string, skillId: string, requestId: string) =>
      fetch(`${url}/tasks/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization, 'x-request-id': requestId },
        body: JSON.stringify(sendBody('hi', { metadata: { skillId } })),
      })
    expect((await send('Bearer not-a-token', 'echo', 'req-bad-token')).status).toBe(401)
    const echoOnly = bearer({ sub: 'bob', scopes: ['a2a:invoke', 'skill:echo'] })
    expect((await send(echoOnly, 'slow', 'req-no-scope')).status).toBe(403)
    const carol = bearer({ sub: 'carol', scopes: ['a2a:invoke', 'skill:*'] })
    expect((await send(carol, 'slow', 'req-running')).status).toBe(200)
    expect((await send(carol, 'echo', 'req-capped')).status).toBe(429)
    await app.close()
    const records = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(records).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          event: AuditEvent.authFailure,
          requestId: 'req-bad-token',
          outcome: 'rejected',
          // No known caller: the address tells who it was.
          details: {
            method: 'POST',
            route: '/tasks/send',
            client: '127.0.0.1',
            reason: 'The token is malformed',
          },
        }),
        expect.objectContaining({
          event: AuditEvent.permissionDenial,
          requestId: 'req-no-scope',
          caller: 'bob',
          skillId: 'slow',
          details: expect.objectContaining({ required: ['skill:slow'] }),
        }),
      ]),
    )
    expect(records).toContainEqual(
      expect.objectContaining({
        event: AuditEvent.rateLimitHit,
        requestId: 'req-capped',
        caller: 'carol',
        details: expect.objectContaining({ limit: 'active-tasks', max: 1 }),
      }),
    )
    expect(verifyChain(records)).toMatchObject({ ok: true })
  })

  it('records who registered, refreshed and removed which agent of the registry', async () => {
    const file = join(dir, 'registry.jsonl')
    const agent = await startTestAgent('Alpha', [translateSkill('Alpha')])
    const app = await auditedApp({ AUDIT_SINK: 'file', AUDIT_FILE: file })
    const url = await listening(app)
    const headers = {
      'content-type': 'application/json',
      authorization: bearer({ sub: 'operator', scopes: ['a2a:admin'] }),
    }
    const register = (requestId: string) =>
      fetch(`${url}/registry/agents`, {
        method: 'POST',
        headers: { ...headers, 'x-request-id': requestId },
        body: JSON.stringify({ url: agent.url }),
      })
    try {
      expect((await register('req-register')).status).toBe(201)
      const registered = await register('req-again')
      expect(registered.status).toBe(200)
      const { id } = (await registered.json()) as { id: string }
      const removed = await fetch(`${url}/registry/agents/${id}`, {
        method: 'DELETE',
        headers: { authorization: headers.authorization, 'x-request-id': 'req-remove' },
      })
      expect(removed.status).toBe(204)
    } finally {
      await app.close()
      await agent.stop()
    }
    const records = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    const route = '/registry/agents'
    expect(records).toEqual([
      expect.objectContaining({
        event: AuditEvent.registryChange,
        caller: 'operator',
        requestId: 'req-register',
        outcome: 'registered',
        details: { method: 'POST', route, agentId: expect.any(String), url: agent.url },
      }),
      expect.objectContaining({
        event: AuditEvent.registryChange,
        requestId: 'req-again',
        outcome: 'refreshed',
        details: { method: 'POST', route, agentId: records[0].details.agentId, url: agent.url },
      }),
      expect.objectContaining({
        event: AuditEvent.registryChange,
        caller: 'operator',
        requestId: 'req-remove',
        outcome: 'removed',
        details: { method: 'DELETE', route: `${route}/:id`, agentId: records[0].details.agentId },
      }),
    ])
    expect(verifyChain(records)).toMatchObject({ ok: true, count: 3 })
  })

  it('names routes as documented, and a path no route serves as "(no route)", never the URL', async () => {
    const file = join(dir, 'routes.jsonl')
    const app = await auditedApp({ AUDIT_SINK: 'file', AUDIT_FILE: file, RATE_LIMIT_MAX: '2' })
    const url = await listening(app)
    const refused = (path: string) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer not-a-token' },
        body: '{}',
      })
    expect((await refused('/a2a/rest/message:send')).status).toBe(401)
    // A path no route serves is 404, whatever the token, and spends the address's budget.
    expect((await refused(`/nowhere/${SECRET}`)).status).toBe(404)
    expect((await refused(`/nowhere/${SECRET}`)).status).toBe(429)
    await app.close()
    const text = readFileSync(file, 'utf8')
    expect(text).not.toContain(SECRET)
    const routes = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .map((record) => [record.event, record.details.route])
    expect(routes).toEqual([
      [AuditEvent.authFailure, '/a2a/rest/message:send'],
      [AuditEvent.rateLimitHit, '(no route)'],
    ])
  })

  it('keeps concurrent requests apart: each task carries its own request id and caller', async () => {
    const file = join(dir, 'concurrent.jsonl')
    const app = await auditedApp({ AUDIT_SINK: 'file', AUDIT_FILE: file })
    const url = await listening(app)
    const callers = Array.from({ length: 8 }, (_, n) => `caller-${n}`)
    const sent = await Promise.all(
      callers.map(async (caller) => {
        const body = sendBody(`from ${caller}`, { metadata: { skillId: 'echo' } })
        const reply = await fetch(`${url}/tasks/send`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: bearer({ sub: caller }),
            'x-request-id': `req-${caller}`,
          },
          body: JSON.stringify(body),
        })
        expect(reply.status).toBe(200)
        return { caller, taskId: body.id }
      }),
    )
    await app.close()
    const records = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(records).toHaveLength(8 * 4)
    for (const { caller, taskId } of sent) {
      const ofTask = records.filter((record) => record.taskId === taskId)
      expect(ofTask).toHaveLength(4)
      for (const record of ofTask) {
        expect(record).toMatchObject({ caller, requestId: `req-${caller}` })
      }
    }
    expect(verifyChain(records)).toMatchObject({ ok: true, count: 32 })
  })
})

describe('audit records with Redis (stream sink)', () => {
  const redis = connectTestRedis()
  const prefixes: string[] = []
  afterEach(async () => {
    for (const prefix of prefixes.splice(0)) await deleteKeysUnder(redis, prefix)
  })
  afterAll(() => redis.quit())

  it('records every event type with its fields on the shared stream, and never a token', async () => {
    const prefix = testPrefix()
    prefixes.push(prefix)
    const app = await auditedApp({
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_KEY_PREFIX: prefix,
    })
    expect(app.audit.enabled).toBe(true)
    const taskId = await exercise(await listening(app))
    await app.close()
    const { records, head } = await readAuditStream(redis, prefix)
    expectEveryEvent(records, taskId)
    expect(head).toEqual({ seq: 7, hash: (records[6] as { hash: string }).hash })
    const raw = JSON.stringify(await redis.xrange(`${prefix}audit:{trail}`, '-', '+'))
    expect(raw).not.toContain('secret-token')
    expect(raw.toLowerCase()).not.toContain('authorization')
  })
})
