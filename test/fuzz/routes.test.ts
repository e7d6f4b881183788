/**
 * Property-based fuzzing of every route of every dialect (issue 4 §5): malformed bodies and
 * headers through `app.inject` on the memory store. Whatever arrives, the server answers below
 * 500, without a stack trace or an internal path, in the route's own error format, and every task
 * it stored is whole: it parses with the Task schema and its event log replays to it.
 *
 * Seeded: FUZZ_SEED=<n> repeats a run; a failure names its seed. FUZZ_RUNS scales the run count.
 */
import { randomUUID } from 'node:crypto'
import fc from 'fast-check'
import type { FastifyInstance, InjectOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Artifact } from '../../src/domain/model.js'
import { Task } from '../../src/domain/model.js'
import { mergeArtifact } from '../../src/domain/task-change.js'
import { echoSkill } from '../../src/skills/echo/index.js'
import { reviewPrSkill } from '../../src/skills/review-pr/index.js'
import { MemoryEventLog } from '../../src/store/memory/event-log.js'
import { MemoryTaskStore } from '../../src/store/memory/task-store.js'
import { testApp } from '../helpers/app.js'

const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31))
const RUNS = Number(process.env.FUZZ_RUNS ?? 1)
const runs = (n: number) => Math.max(1, Math.round(n * RUNS))
const BODY_LIMIT = 16_384

type Dialect = 'seed' | 'jsonrpc' | 'rest'

/** A method as inject takes it. */
type Method = NonNullable<InjectOptions['method']>

/** Route templates; `:id` is filled with a known task id, a UUID, or junk. */
const ROUTES: { method: Method; path: string }[] = [
  { method: 'GET', path: '/.well-known/agent.json' },
  { method: 'GET', path: '/.well-known/agent-card.json' },
  { method: 'POST', path: '/tasks/send' },
  { method: 'POST', path: '/tasks/sendSubscribe' },
  { method: 'GET', path: '/tasks/:id' },
  { method: 'POST', path: '/tasks/:id/cancel' },
  { method: 'POST', path: '/tasks/:id/send' },
  { method: 'POST', path: '/a2a/jsonrpc' },
  { method: 'POST', path: '/a2a/jsonrpc/' },
  { method: 'POST', path: '/a2a/rest/message:send' },
  { method: 'POST', path: '/a2a/rest/message:stream' },
  { method: 'GET', path: '/a2a/rest/tasks' },
  { method: 'GET', path: '/a2a/rest/tasks/:id' },
  { method: 'POST', path: '/a2a/rest/tasks/:id:cancel' },
  { method: 'GET', path: '/a2a/rest/tasks/:id:subscribe' },
  { method: 'POST', path: '/a2a/rest/tasks/:id:subscribe' },
  { method: 'POST', path: '/a2a/rest/tenant-1/message:send' },
  { method: 'GET', path: '/a2a/rest/tenant-1/tasks/:id' },
  { method: 'POST', path: '/a2a/rest/tasks/:id/pushNotificationConfigs' },
  { method: 'GET', path: '/a2a/rest/extendedAgentCard' },
  { method: 'GET', path: '/healthz' },
  { method: 'GET', path: '/readyz' },
  { method: 'GET', path: '/no/such/route' },
]

const RPC_METHODS = [
  'SendMessage',
  'SendStreamingMessage',
  'GetTask',
  'ListTasks',
  'CancelTask',
  'SubscribeToTask',
  'GetExtendedAgentCard',
  'CreateTaskPushNotificationConfig',
  'message/send',
  'message/stream',
  'tasks/get',
  'tasks/cancel',
  'tasks/resubscribe',
  'tasks/pushNotificationConfig/set',
  'agent/getAuthenticatedExtendedCard',
]

/** Which error format a request's answer must have: the dialect of the route it reached. */
function dialectOf(method: string, url: string): Dialect {
  const path = url.split('?')[0]!
  if (path.startsWith('/a2a/rest')) return 'rest'
  // The endpoint, and every answer under its path that no route gives (no route, a URL that
  // cannot be decoded, a refused token), is JSON-RPC.
  if (path.startsWith('/a2a/jsonrpc')) return 'jsonrpc'
  if (path === '/.well-known/agent-card.json' && (method === 'GET' || method === 'HEAD'))
    return 'rest'
  return 'seed'
}

const FORMATS: Record<Dialect, (body: unknown) => boolean> = {
  seed: (body) =>
    isObject(body) &&
    isObject(body.error) &&
    typeof body.error.code === 'string' &&
    typeof body.error.message === 'string' &&
    typeof body.error.requestId === 'string',
  jsonrpc: (body) =>
    isObject(body) &&
    body.jsonrpc === '2.0' &&
    'id' in body &&
    isObject(body.error) &&
    Number.isInteger(body.error.code) &&
    typeof body.error.message === 'string',
  rest: (body) =>
    isObject(body) &&
    isObject(body.error) &&
    Number.isInteger(body.error.code) &&
    typeof body.error.status === 'string' &&
    typeof body.error.message === 'string' &&
    Array.isArray(body.error.details),
}

const isObject = (value: unknown): value is Record<string, any> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** A stack frame, a source path, or an internal error name: nothing a caller should see. */
const LEAK = /\n\s+at |\bat .+:\d+:\d+|node_modules|\/work\/|\/src\/|\.ts:\d+|TypeError|RangeError/

// --- arbitraries ---------------------------------------------------------------------------

const nastyKey = fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', '')
const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    null,
    '',
    -1,
    1e308,
    'ROLE_USER',
    'user',
    'text',
    { text: 'x' },
    [{ type: 'text', text: 'x' }],
    [{ kind: 'data', data: { focus: 'security' } }],
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
)

/** A message in one of the shapes the dialects take, with fields replaced by nonsense. */
const message = fc.record(
  {
    messageId: fc.oneof(fc.uuid(), nastyValue),
    role: fc.constantFrom('user', 'ROLE_USER', 'agent', 'ROLE_AGENT', 7),
    kind: fc.constantFrom('message', 'task'),
    parts: fc.oneof(
      fc.array(
        fc.oneof(
          fc.record({ type: fc.constantFrom('text', 'data', 'file', 'x'), text: nastyValue }),
          fc.record({ kind: fc.constantFrom('text', 'data', 'file'), data: nastyValue }),
          fc.record({ text: nastyValue }),
          fc.record({ data: fc.dictionary(fc.oneof(nastyKey, fc.string()), nastyValue) }),
          fc.record({ raw: fc.string(), mediaType: fc.string() }),
          fc.record({ file: fc.record({ bytes: fc.string(), uri: fc.string() }) }),
        ),
        { maxLength: 4 },
      ),
      nastyValue,
    ),
    taskId: fc.oneof(fc.uuid(), nastyValue),
    contextId: fc.oneof(fc.uuid(), fc.string({ maxLength: 300 }), nastyValue),
    metadata: fc.oneof(fc.dictionary(fc.oneof(nastyKey, fc.string()), nastyValue), nastyValue),
  },
  { requiredKeys: [] },
)

const structured = fc.record(
  {
    jsonrpc: fc.constantFrom('2.0', '1.0', 2),
    id: fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), fc.constant(null), nastyValue),
    method: fc.oneof(fc.constantFrom(...RPC_METHODS), fc.string({ maxLength: 10 })),
    params: fc.oneof(
      fc.record(
        {
          message,
          id: fc.oneof(fc.uuid(), nastyValue),
          historyLength: nastyValue,
          configuration: nastyValue,
        },
        { requiredKeys: [] },
      ),
      nastyValue,
    ),
    id_: fc.uuid(),
    message,
    sessionId: nastyValue,
    historyLength: nastyValue,
    metadata: nastyValue,
  },
  { requiredKeys: [] },
)

const depthBomb = fc
  .tuple(fc.integer({ min: 50, max: 8000 }), fc.constantFrom('[', '{"a":'), fc.boolean())
  .map(([depth, open, inMessage]) => {
    const close = open === '[' ? ']' : '}'
    const bomb = open.repeat(depth) + (open === '[' ? '' : '1') + close.repeat(depth)
    return inMessage
      ? `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"data":{"x":${bomb}}}]}},"id_":0,"message":{"role":"user","parts":[{"type":"data","data":{"x":${bomb}}}]}}`
      : bomb
  })

/** Raw payloads: JSON text of any kind, broken JSON, bad UTF-8, huge, deep, polluting. */
const payload: fc.Arbitrary<string | Buffer | undefined> = fc.oneof(
  structured.map((body) => {
    const { id_, ...rest } = body as Record<string, unknown>
    return JSON.stringify(id_ === undefined ? rest : { ...rest, id: id_ })
  }),
  fc.json({ maxDepth: 4 }),
  fc.string({ maxLength: 60 }),
  fc.constantFrom(
    '',
    '{',
    'null',
    '[]',
    '"x"',
    '{"__proto__":{"polluted":true}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    '{"message":{"role":"user","parts":[{"type":"data","data":{"__proto__":{"x":1}}}]}}',
    '{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"__proto__":{"a":1}}}',
  ),
  depthBomb,
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.concat([Buffer.from('{"a":"'), bytes])),
  fc.constantFrom(
    Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    Buffer.from('{"a":"\\ud800"}'),
  ),
  fc.integer({ min: BODY_LIMIT - 10, max: BODY_LIMIT * 2 }).map((n) => `"${'x'.repeat(n)}"`),
  fc.constant(undefined),
)

const contentType = fc.option(
  fc.constantFrom(
    'application/json',
    'application/a2a+json',
    'application/json; charset=utf-8',
    'application/json; charset=latin1',
    'text/plain',
    'application/xml',
    'multipart/form-data; boundary=x',
    'application/x-www-form-urlencoded',
    'application/json, text/plain',
    '',
    '*/*',
    ';;;',
  ),
  { nil: undefined },
)

const header = (values: string[]) =>
  fc.option(fc.oneof(fc.constantFrom(...values), fc.string({ maxLength: 20 })), { nil: undefined })

/** A printable header value (HTTP refuses control characters before we ever see them). */
const printable = (arbitrary: fc.Arbitrary<string | undefined>) =>
  arbitrary.map((value) => value?.replace(/[^\x20-\x7e]/g, ''))

/** Valid requests that create tasks, as templates: the near-valid fuzzing mutates one leaf. */
const TEMPLATES: {
  method: Method
  url: string
  headers: Record<string, string>
  body: (id: string, messageId: string) => Record<string, unknown>
}[] = [
  ...['/tasks/send', '/tasks/sendSubscribe'].map((url) => ({
    method: 'POST' as const,
    url,
    headers: {},
    body: (id: string) => ({
      id,
      sessionId: 's-1',
      message: {
        role: 'user',
        parts: [
          { type: 'text', text: 'hi' },
          { type: 'data', data: { focus: ['security'] } },
        ],
      },
      metadata: { skillId: 'echo' },
    }),
  })),
  ...['SendMessage', 'SendStreamingMessage'].map((method) => ({
    method: 'POST' as const,
    url: '/a2a/jsonrpc',
    headers: { 'a2a-version': '1.0' },
    body: (_id: string, messageId: string) => ({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        message: {
          messageId,
          role: 'ROLE_USER',
          parts: [{ text: 'hi' }, { data: { focus: ['bugs'] } }],
        },
        configuration: { historyLength: 2 },
        metadata: { skillId: 'review-pr' },
      },
    }),
  })),
  ...['message/send', 'message/stream'].map((method) => ({
    method: 'POST' as const,
    url: '/a2a/jsonrpc',
    headers: {},
    body: (_id: string, messageId: string) => ({
      jsonrpc: '2.0',
      id: 'a',
      method,
      params: {
        message: {
          kind: 'message',
          messageId,
          role: 'user',
          parts: [{ kind: 'text', text: 'hi' }],
        },
        metadata: { skillId: 'echo' },
      },
    }),
  })),
  ...['/a2a/rest/message:send', '/a2a/rest/message:stream'].map((url) => ({
    method: 'POST' as const,
    url,
    headers: { 'a2a-version': '1.0' },
    body: (_id: string, messageId: string) => ({
      message: {
        messageId,
        role: 'ROLE_USER',
        parts: [{ text: 'hi' }, { data: { language: 'python' } }],
      },
    }),
  })),
]

/** Every path to a value in `value`, objects and arrays included. */
function pathsOf(value: unknown, at: string[] = []): string[][] {
  if (value === null || typeof value !== 'object') return [at]
  return [at, ...Object.entries(value).flatMap(([key, child]) => pathsOf(child, [...at, key]))]
}

/** `value` with the value at `path` replaced (or deleted, for undefined). */
function mutated(value: Record<string, unknown>, path: string[], replacement: unknown) {
  if (path.length === 0) return replacement
  const copy = structuredClone(value)
  let node: Record<string, unknown> = copy
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>
  if (replacement === undefined) delete node[path.at(-1)!]
  else node[path.at(-1)!] = replacement
  return copy
}

const nearValid = fc
  .record({
    template: fc.constantFrom(...TEMPLATES),
    id: fc.uuid(),
    messageId: fc.uuid(),
    mutate: fc.boolean(),
    at: fc.nat(),
    replacement: fc.option(nastyValue, { freq: 5, nil: undefined }),
  })
  .map(({ template, id, messageId, mutate, at, replacement }) => {
    const body = template.body(id, messageId)
    const paths = pathsOf(body)
    const payload = mutate ? mutated(body, paths[at % paths.length]!, replacement) : body
    return {
      method: template.method,
      url: template.url,
      headers: { 'content-type': 'application/json', ...template.headers },
      payload: JSON.stringify(payload) ?? '',
    }
  })

// --- the run -------------------------------------------------------------------------------

describe(`fuzzing every route (seed ${SEED})`, () => {
  let app: FastifyInstance
  const tasks = new MemoryEventLog()
  const store = new MemoryTaskStore(tasks, { terminalTtlMs: 0 })
  const known: string[] = []

  beforeAll(async () => {
    app = await testApp(
      { BODY_LIMIT: String(BODY_LIMIT), RATE_LIMIT_MAX: '1000000', SEND_WAIT_MS: '200' },
      { skills: [echoSkill, reviewPrSkill], store: { tasks: store, events: tasks } },
    )
    // A few real tasks, so that ids in paths sometimes name one.
    for (const text of ['hello', 'world']) {
      const id = randomUUID()
      const response = await app.inject({
        method: 'POST',
        url: '/tasks/send',
        payload: { id, message: { role: 'user', parts: [{ type: 'text', text }] } },
      })
      expect(response.statusCode).toBe(200)
      known.push(id)
    }
  })
  afterAll(() => app.close())

  const taskId = () =>
    fc.oneof(
      fc.constantFrom(...known),
      fc.uuid(),
      fc.string({ maxLength: 40 }).map(encodeURIComponent),
      fc.constantFrom('%00', '..%2F..%2Fetc', '%E0%A4%A', '__proto__', 'a:b:c'),
    )

  const request = () =>
    fc
      .record({
        route: fc.constantFrom(...ROUTES),
        otherMethod: fc.option(
          fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'),
          { freq: 4, nil: undefined },
        ),
        id: taskId(),
        query: fc.option(
          fc.constantFrom(
            '?historyLength=-1',
            '?historyLength=abc',
            '?pageSize=0',
            '?pageSize=1e9',
            '?A2A-Version=9',
            '?status=NOPE',
            '?pageToken=%FF',
            '?a[b]=1&a=2',
          ),
          { nil: undefined },
        ),
        payload,
        contentType,
        version: printable(header(['1.0', '0.3', '1.0.1', '2.0', ''])),
        accept: printable(header(['text/event-stream', 'application/a2a+json', '*/*'])),
        requestId: printable(header(['ok-1', 'a'.repeat(200)])),
        lastEventId: printable(header(['0-1', 'garbage'])),
      })
      .map((r): InjectOptions & { method: Method; url: string } => {
        const method = r.otherMethod ?? r.route.method
        const url = r.route.path.replace(':id', r.id) + (r.query ?? '')
        const headers: Record<string, string> = {}
        if (r.contentType !== undefined) headers['content-type'] = r.contentType
        if (r.version !== undefined) headers['a2a-version'] = r.version
        if (r.accept !== undefined) headers.accept = r.accept
        if (r.requestId !== undefined) headers['x-request-id'] = r.requestId
        if (r.lastEventId !== undefined) headers['last-event-id'] = r.lastEventId
        const withBody = method !== 'GET' && method !== 'HEAD' && r.payload !== undefined
        return {
          method,
          url,
          headers,
          ...(withBody && { payload: r.payload }),
        }
      })

  /** One request: never 5xx, never hangs, never leaks; errors in the route's dialect format. */
  async function check(options: InjectOptions & { method: Method; url: string }) {
    let timer: NodeJS.Timeout | undefined
    const hung = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('no answer within 5 s')), 5000)
    })
    const response = await Promise.race([app.inject(options), hung]).finally(() =>
      clearTimeout(timer),
    )
    const where = `${options.method} ${options.url} → ${response.statusCode}: ${response.body.slice(0, 300)}`
    expect(response.statusCode, where).toBeLessThan(500)
    expect(response.body, where).not.toMatch(LEAK)
    if (response.statusCode < 400 || options.method === 'HEAD') return
    let body: unknown
    try {
      body = JSON.parse(response.body)
    } catch {
      throw new Error(`not JSON: ${where}`)
    }
    const dialect = dialectOf(options.method, options.url)
    expect(FORMATS[dialect](body), `${dialect} format: ${where}`).toBe(true)
  }

  it('answers thousands of malformed requests at every route below 500, in the route’s format', async () => {
    await fc.assert(
      fc.asyncProperty(request(), (options) => check(options)),
      { seed: SEED, numRuns: runs(4000), endOnFailure: true },
    )
  }, 120_000)

  it('answers near-valid requests (one field changed) below 500, in the route’s format', async () => {
    await fc.assert(
      fc.asyncProperty(nearValid, (options) => check(options)),
      { seed: SEED, numRuns: runs(1200), endOnFailure: true },
    )
  }, 120_000)

  it('leaves every stored task whole: it parses, and its event log replays to it', async () => {
    // Let the turns started above finish (SEND_WAIT_MS is short; skills are quick).
    const settled = async () => {
      const { tasks: all } = await store.list({ pageSize: 100 })
      return all.every((task) => !['submitted', 'working'].includes(task.status.state))
    }
    for (let i = 0; i < 100 && !(await settled()); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    let pageToken: string | undefined
    let seen = 0
    do {
      const page = await store.list({ pageSize: 100, ...(pageToken && { pageToken }) })
      for (const task of page.tasks) {
        seen++
        expect(Task.safeParse(task).success, task.id).toBe(true)
        const events = await tasks.read(task.id)
        const statuses = events.flatMap(({ event }) =>
          event.kind === 'status-update' ? [event.status] : [],
        )
        let artifacts: Artifact[] = []
        for (const { event } of events) {
          if (event.kind === 'artifact-update') {
            artifacts = mergeArtifact(artifacts, event.artifact, event.append)
          }
        }
        expect(statuses.at(-1), task.id).toEqual(task.status)
        expect(
          statuses.map(({ state, timestamp }) => ({ state, timestamp })),
          task.id,
        ).toEqual(task.transitions)
        expect(artifacts, task.id).toEqual(task.artifacts)
      }
      pageToken = page.nextPageToken
    } while (pageToken)
    // The near-valid requests above created tasks of their own.
    expect(seen).toBeGreaterThan(known.length + 100)
  })
})
