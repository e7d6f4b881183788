/**
 * GET /metrics as Prometheus scrapes it: what a send, a stream, a refusal and an unknown path
 * add, read back from the exposition text.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { testApp, listening } from '../helpers/app.js'
import { bearer } from '../helpers/auth.js'
import { sendBody } from '../helpers/bodies.js'
import { slowSkill } from '../helpers/skills.js'
import { openStream, readAll } from '../helpers/sse.js'
import { rpcOverHttp, v10Message } from '../helpers/jsonrpc.js'
import { pino } from 'pino'
import { memoryBackend } from '../../src/backends/memory.js'
import { configFrom } from '../../src/config.js'
import { connectTestRedis, deleteKeysUnder, testPrefix } from '../helpers/redis.js'

let app: FastifyInstance | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

async function scrape(server: FastifyInstance): Promise<string> {
  const response = await server.inject({
    url: '/metrics',
    headers: { authorization: undefined },
  })
  expect(response.statusCode).toBe(200)
  return response.body
}

/** The value of the sample `name{labels}` (labels in the order they are written), or undefined. */
function sample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const rendered = Object.entries(labels)
    .map(([key, value]) => `${key}="${value}"`)
    .join(',')
  const prefix = rendered === '' ? `${name} ` : `${name}{${rendered}} `
  const line = text.split('\n').find((candidate) => candidate.startsWith(prefix))
  return line === undefined ? undefined : Number(line.slice(prefix.length))
}

describe('GET /metrics', () => {
  it('is public, in the Prometheus text format, with the process metrics', async () => {
    app = await testApp()
    const response = await app.inject({ url: '/metrics', headers: { authorization: undefined } })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8')
    expect(response.body).toContain('# TYPE a2a_tasks_created_total counter')
    expect(response.body).toContain('# TYPE a2a_task_duration_seconds histogram')
    expect(sample(response.body, 'a2a_sse_streams_open')).toBe(0)
    expect(sample(response.body, 'a2a_turns_running')).toBe(0)
    // In memory there is no shared work queue to report.
    expect(response.body).not.toContain('a2a_queue_turns')
    expect(response.body).toMatch(/^process_cpu_user_seconds_total \d/m)
    expect(response.body).toMatch(/^nodejs_eventloop_lag_seconds /m)
  })

  it('counts a task from its creation to its end, by skill', async () => {
    app = await testApp({ BUNDLED_SKILLS: 'echo' })
    const sent = await app.inject({
      method: 'POST',
      url: '/tasks/send',
      payload: sendBody('hello', { metadata: { skillId: 'echo' } }),
    })
    expect(sent.statusCode).toBe(200)

    const text = await scrape(app)
    expect(sample(text, 'a2a_tasks_created_total', { skill: 'echo' })).toBe(1)
    expect(sample(text, 'a2a_task_status_updates_total', { skill: 'echo', state: 'working' })).toBe(
      1,
    )
    expect(
      sample(text, 'a2a_task_status_updates_total', { skill: 'echo', state: 'completed' }),
    ).toBe(1)
    expect(sample(text, 'a2a_artifact_updates_total', { skill: 'echo' })).toBe(1)
    expect(
      sample(text, 'a2a_task_duration_seconds_count', { skill: 'echo', state: 'completed' }),
    ).toBe(1)
    expect(
      sample(text, 'a2a_task_duration_seconds_bucket', {
        skill: 'echo',
        state: 'completed',
        le: '+Inf',
      }),
    ).toBe(1)
    expect(
      sample(text, 'a2a_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/tasks/send',
        status_code: '200',
      }),
    ).toBe(1)
  })

  it('labels a route with a colon in its path as it is declared, the colon once', async () => {
    app = await testApp({ BUNDLED_SKILLS: 'echo' })
    const sent = await app.inject({
      method: 'POST',
      url: '/a2a/rest/message:send',
      headers: { 'a2a-version': '1.0' },
      payload: { message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
    })
    expect(sent.statusCode).toBe(200)
    const text = await scrape(app)
    expect(
      sample(text, 'a2a_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/a2a/rest/message:send',
        status_code: '200',
      }),
    ).toBe(1)
    expect(text).not.toContain('message::send')
  })

  it('labels a path no route matches as unmatched, never with the path itself', async () => {
    app = await testApp()
    for (const path of ['/nope', '/nope/2', '/tasks/x/y/z']) {
      expect((await app.inject({ url: path })).statusCode).toBe(404)
    }
    const text = await scrape(app)
    expect(
      sample(text, 'a2a_http_request_duration_seconds_count', {
        method: 'GET',
        route: 'unmatched',
        status_code: '404',
      }),
    ).toBe(3)
    expect(text).not.toContain('/nope')
  })

  it('counts refusals: no token, a missing scope, the rate limit, the running-task cap', async () => {
    app = await testApp(
      { RATE_LIMIT_MAX: '3', MAX_ACTIVE_TASKS_PER_CALLER: '1' },
      { skills: [slowSkill()] },
    )
    expect(
      (await app.inject({ url: '/tasks/x', headers: { authorization: undefined } })).statusCode,
    ).toBe(401)
    const unscoped = bearer({ sub: 'reader', scopes: [] })
    expect(
      (await app.inject({ url: '/tasks/x', headers: { authorization: unscoped } })).statusCode,
    ).toBe(403)

    const first = await sendMessage(app, 'one')
    expect(first).toMatchObject({ result: { task: { id: expect.any(String) } } })
    const capped = await sendMessage(app, 'two')
    expect(capped).toMatchObject({
      error: { message: expect.stringMatching(/open task/) },
    })
    expect((await app.inject({ url: `/tasks/${crypto.randomUUID()}` })).statusCode).toBe(404)
    expect((await app.inject({ url: `/tasks/${crypto.randomUUID()}` })).statusCode).toBe(429)

    const text = await scrape(app)
    expect(
      sample(text, 'a2a_auth_failures_total', {
        reason: 'Authentication required: send \\"Authorization: Bearer <token>\\"',
      }),
    ).toBe(1)
    expect(sample(text, 'a2a_permission_denials_total')).toBe(1)
    expect(sample(text, 'a2a_rate_limit_hits_total', { limit: 'active-tasks' })).toBe(1)
    expect(sample(text, 'a2a_rate_limit_hits_total', { limit: 'requests' })).toBe(1)
    expect(sample(text, 'a2a_turns_running')).toBe(1)
    // By A2A code, whatever the dialect: the cap's JSON-RPC error came as an HTTP 200.
    expect(sample(text, 'a2a_errors_total', { code: 'UNAUTHENTICATED' })).toBe(1)
    expect(sample(text, 'a2a_errors_total', { code: 'PERMISSION_DENIED' })).toBe(1)
    expect(sample(text, 'a2a_errors_total', { code: 'ACTIVE_TASK_LIMIT' })).toBe(1)
    expect(sample(text, 'a2a_errors_total', { code: 'TASK_NOT_FOUND' })).toBe(1)
    expect(sample(text, 'a2a_errors_total', { code: 'RATE_LIMITED' })).toBe(1)
  })

  it('counts the SSE streams open now', async () => {
    app = await testApp({}, { skills: [slowSkill()] })
    const url = await listening(app)
    const { request, frames } = await openStream(`${url}/tasks/sendSubscribe`, sendBody('wait'))
    await frames.next()
    expect(sample(await scrape(app), 'a2a_sse_streams_open')).toBe(1)

    request.destroy()
    await expect.poll(async () => sample(await scrape(app!), 'a2a_sse_streams_open')).toBe(0)
  })

  it('reports how full the in-memory store is, and the ended tasks it let go early', async () => {
    app = await testApp({ MAX_TASKS_IN_MEMORY: '2' })
    for (const text of ['a', 'b', 'c']) {
      const sent = await app.inject({
        method: 'POST',
        url: '/tasks/send',
        payload: sendBody(text, { metadata: { skillId: 'echo' } }),
      })
      expect(sent.statusCode).toBe(200)
    }
    const text = await scrape(app)
    expect(sample(text, 'a2a_memory_tasks_held')).toBe(2)
    expect(sample(text, 'a2a_memory_tasks_max')).toBe(2)
    expect(sample(text, 'a2a_memory_tasks_forgotten_early_total')).toBe(1)
    expect(text).toContain('# TYPE a2a_memory_tasks_forgotten_early_total counter\n')
  })

  it('on Redis, reports the shared work queue and the turns this process runs', async () => {
    const prefix = testPrefix()
    const redis = connectTestRedis()
    try {
      app = await testApp(
        { REDIS_URL: 'redis://127.0.0.1:6379', REDIS_KEY_PREFIX: prefix },
        { skills: [slowSkill()] },
      )
      const sent = await sendMessage(app, 'wait')
      expect(sent).toMatchObject({ result: { task: { id: expect.any(String) } } })
      await expect.poll(async () => sample(await scrape(app!), 'a2a_turns_running')).toBe(1)
      // The running turn stays in the queue's stream until it is acknowledged.
      const text = await scrape(app)
      expect(sample(text, 'a2a_queue_turns')).toBe(1)
      // Redis holds the tasks: no in-memory store to report.
      expect(text).not.toContain('a2a_memory_tasks')
      await app.close()
      app = undefined
    } finally {
      await deleteKeysUnder(redis, prefix)
      await redis.quit()
    }
  })

  it('counts an error that ends a stream after its first frame', async () => {
    // An event log whose live follow fails: the 1.0 stream sends its snapshot, then the error.
    const backend = memoryBackend(configFrom({}), pino({ level: 'silent' }))
    const events = Object.assign(Object.create(backend.events) as typeof backend.events, {
      follow: async function* () {
        yield* []
        throw new Error('the event log failed')
      },
    })
    app = await testApp({}, { skills: [slowSkill()], store: { ...backend, events } })
    const url = await listening(app)
    const response = await rpcOverHttp(url, 'SendStreamingMessage', { message: v10Message('x') })
    const { frames } = await readAll(response)
    expect(frames.at(-1)).toMatchObject({ event: 'error' })
    expect(sample(await scrape(app), 'a2a_errors_total', { code: 'INTERNAL_ERROR' })).toBe(1)
  })

  it('is not served, and nothing is counted, with METRICS_ENABLED=false', async () => {
    app = await testApp({ METRICS_ENABLED: 'false' })
    expect((await app.inject({ url: '/metrics' })).statusCode).toBe(404)
    expect(app.metrics).toBeUndefined()
  })
})

/** A 1.0 SendMessage that answers at once, with the task as it is. */
async function sendMessage(server: FastifyInstance, text: string) {
  const response = await server.inject({
    method: 'POST',
    url: '/a2a/jsonrpc',
    headers: { 'a2a-version': '1.0' },
    payload: {
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: {
        message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] },
        configuration: { returnImmediately: true },
      },
    },
  })
  return response.json<Record<string, unknown>>()
}

describe('METRICS_TOKEN', () => {
  const METRICS_TOKEN = 'scrape-token-0123456789-abcdefghijklmnop'

  it('makes GET /metrics need that bearer token; an A2A token is not it', async () => {
    app = await testApp({ METRICS_TOKEN })
    const as = (authorization?: string) =>
      app!.inject({ url: '/metrics', headers: { authorization } })

    const missing = await as(undefined)
    expect(missing.statusCode).toBe(401)
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="metrics"')
    expect(missing.json().error).toMatchObject({
      code: 'UNAUTHENTICATED',
      message: 'GET /metrics needs the token in METRICS_TOKEN: send Authorization: Bearer <token>',
    })
    for (const wrong of [bearer(), `Bearer ${METRICS_TOKEN}x`, METRICS_TOKEN]) {
      const refused = await as(wrong)
      expect(refused.statusCode).toBe(401)
      expect(refused.json().error.message).toBe('The token is not the one in METRICS_TOKEN')
    }
    const scraped = await as(`Bearer ${METRICS_TOKEN}`)
    expect(scraped.statusCode).toBe(200)
    expect(scraped.body).toContain('# TYPE a2a_auth_failures_total counter')
    // The refusals are counted as any failed authentication.
    expect(
      sample(scraped.body, 'a2a_auth_failures_total', {
        reason: 'The token is not the one in METRICS_TOKEN',
      }),
    ).toBe(3)
  })

  it('refuses a token shorter than 32 characters at start', () => {
    expect(() => configFrom({ METRICS_TOKEN: 'short' })).toThrow(
      /METRICS_TOKEN: must be at least 32 characters/,
    )
  })
})
