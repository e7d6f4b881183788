/**
 * The process as the container runs it: `node dist/server.js` on the BUILT output, with the
 * environment as its only input. Checks that it serves, that SIGTERM and SIGINT close it with
 * exit code 0, and that a bad setting stops it with exit code 78 naming the variable.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { PrivateRedis, hasRedisServer } from '../helpers/private-redis.js'
import { connectTestRedis, deleteKeysUnder, testPrefix } from '../helpers/redis.js'
import { bearer } from '../helpers/auth.js'
import { exited, root, useServerProcesses } from '../helpers/server-process.js'

const { spawnServer, startServer } = useServerProcesses()

/** What a server logs at `info` until it says it is ready; it is stopped then. */
async function logUntilReady(env: Record<string, string>): Promise<string> {
  const { child, stdout } = await startServer({ LOG_LEVEL: 'info', ...env })
  await vi.waitFor(() => expect(stdout()).toContain(' ready'), { timeout: 5_000 })
  child.kill('SIGTERM')
  await exited(child, 5_000)
  return stdout()
}

describe('node dist/server.js', () => {
  it('serves the Agent Card of the Code Review Agent', async () => {
    const { url } = await startServer()
    const response = await fetch(`${url}/.well-known/agent.json`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    const card = (await response.json()) as { name: string; url: string; skills: { id: string }[] }
    expect(card.name).toBe('Code Review Agent')
    expect(card.skills.map((skill) => skill.id)).toEqual(['review-pr', 'echo'])
  })

  it('warns at start of a variable named like a setting, which it ignores', async () => {
    const log = await logUntilReady({ SKILL_MODULE: './test/fixtures/greeting-skill.js' })
    const lines = log
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { level: number; msg: string })
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: 'unknown setting SKILL_MODULE is ignored; did you mean SKILL_MODULES?',
      }),
    )
  })

  it('announces what each role serves: the card for an API, the probes for a worker', async () => {
    expect(await logUntilReady({})).toContain('"msg":"A2A agent ready: curl http://localhost:')
    const redis = connectTestRedis()
    const prefix = testPrefix()
    try {
      const worker = await logUntilReady({
        REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
        REDIS_KEY_PREFIX: prefix,
        ROLE: 'worker',
      })
      // Its own address, where its probes are, not PUBLIC_URL (the API's).
      expect(worker).toMatch(
        /"msg":"A2A worker ready: runs turns from the work queue; serves http:\/\/127\.0\.0\.1:\d+\/readyz and \/metrics"/,
      )
      expect(worker).not.toContain('agent.json')
    } finally {
      await deleteKeysUnder(redis, prefix)
      redis.disconnect()
    }
  })

  it('runs a production worker without a key: its probes answer, nothing else does', async () => {
    const redis = connectTestRedis()
    const prefix = testPrefix()
    try {
      // An empty variable is unset: no AUTH_* at all, as a worker's environment may be.
      const { url } = await startServer({
        AUTH_JWT_SECRET: '',
        ROLE: 'worker',
        REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
        REDIS_KEY_PREFIX: prefix,
      })
      await vi.waitFor(async () => expect((await fetch(`${url}/readyz`)).status).toBe(200), {
        timeout: 5_000,
      })
      expect((await fetch(`${url}/metrics`)).status).toBe(200)
      // With a token or without, the same answer: a worker serves no A2A path.
      const withToken: Record<string, string> = { authorization: bearer() }
      for (const headers of [withToken, {}]) {
        const refused = await fetch(`${url}/tasks/00000000-0000-4000-8000-000000000000`, {
          headers,
        })
        expect(refused.status).toBe(404)
        expect(((await refused.json()) as { error: { code: string } }).error.code).toBe(
          'ROUTE_NOT_FOUND',
        )
      }
    } finally {
      await deleteKeysUnder(redis, prefix)
      redis.disconnect()
    }
  })

  it('still refuses to start an API process in production without a key', async () => {
    const { child, stderr } = spawnServer({ AUTH_JWT_SECRET: '', ROLE: 'all' })
    expect(await exited(child, 5_000)).toEqual({ code: 78, signal: null })
    expect(stderr()).toContain(
      'AUTH_JWT_SECRET: production needs token verification: set one of AUTH_JWT_SECRET, AUTH_JWT_PUBLIC_KEY, AUTH_JWKS_URL',
    )
  })

  it.skipIf(!hasRedisServer)(
    'says a worker started while Redis is down waits for it, and that it is ready once Redis is up',
    async () => {
      const redis = await PrivateRedis.start()
      try {
        await redis.stop()
        const { child, stdout } = await startServer({
          LOG_LEVEL: 'info',
          REDIS_URL: redis.url,
          REDIS_KEY_PREFIX: testPrefix(),
          ROLE: 'worker',
        })
        const lines = () =>
          stdout()
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as { level: number; msg: string })
        await vi.waitFor(() => expect(stdout()).toContain('A2A worker started'), { timeout: 5_000 })
        expect(lines().find((line) => line.msg.startsWith('A2A worker started'))).toMatchObject({
          level: 40,
          msg: expect.stringMatching(
            /^A2A worker started, waiting for redis: runs turns once it answers; http:\/\/127\.0\.0\.1:\d+\/readyz answers 503 until then$/,
          ),
        })
        expect(stdout()).not.toContain(' ready')

        await redis.start()
        await vi.waitFor(() => expect(stdout()).toContain('A2A worker ready'), { timeout: 5_000 })
        const messages = lines().map((line) => line.msg)
        expect(messages.indexOf('Redis is reachable')).toBeGreaterThan(-1)
        expect(messages.indexOf('Redis is reachable')).toBeLessThan(
          messages.findIndex((msg) => msg.startsWith('A2A worker ready')),
        )
        // No agent is registered: nothing was checked, so no check failed.
        expect(messages).not.toContain('agent health checks failed')
        child.kill('SIGTERM')
        await exited(child, 5_000)
      } finally {
        await redis.remove()
      }
    },
  )

  it.skipIf(!hasRedisServer)(
    'counts no /readyz request in /metrics that no client made, while it waits for Redis at start',
    async () => {
      const redis = await PrivateRedis.start()
      try {
        await redis.stop()
        const { child, url, stdout } = await startServer({
          LOG_LEVEL: 'info',
          REDIS_URL: redis.url,
          REDIS_KEY_PREFIX: testPrefix(),
        })
        await vi.waitFor(() => expect(stdout()).toContain('A2A agent started, waiting for redis'), {
          timeout: 5_000,
        })
        await redis.start()
        await vi.waitFor(() => expect(stdout()).toContain('A2A agent ready'), { timeout: 5_000 })
        const readyzSeries = async () =>
          (await (await fetch(`${url}/metrics`)).text())
            .split('\n')
            .filter((line) => line.startsWith('a2a_http_request_duration_seconds_count{'))
            .filter((line) => line.includes('route="/readyz"'))
        expect(await readyzSeries()).toEqual([])

        // A client's probe is counted, once.
        expect((await fetch(`${url}/readyz`)).status).toBe(200)
        expect(await readyzSeries()).toEqual([
          'a2a_http_request_duration_seconds_count{method="GET",route="/readyz",status_code="200"} 1',
        ])
        child.kill('SIGTERM')
        await exited(child, 5_000)
      } finally {
        await redis.remove()
      }
    },
  )

  it.skipIf(!hasRedisServer)(
    'says an agent whose REDIS_URL names a database Redis lacks serves 503 until fixed and restarted, not that it waits',
    async () => {
      const redis = await PrivateRedis.start()
      try {
        const { child, url, stdout } = await startServer({
          LOG_LEVEL: 'info',
          REDIS_URL: `${redis.url}/99`,
          REDIS_KEY_PREFIX: testPrefix(),
        })
        const lines = () =>
          stdout()
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as { level: number; msg: string })
        await vi.waitFor(() => expect(stdout()).toContain('A2A agent started'), { timeout: 5_000 })
        expect(lines().find((line) => line.msg.startsWith('A2A agent started'))).toEqual(
          expect.objectContaining({
            level: 50,
            msg: expect.stringMatching(
              /^A2A agent started but cannot use redis: every request that needs it, and http:\/\/127\.0\.0\.1:\d+\/readyz, answer 503 until REDIS_URL is fixed and the process restarted$/,
            ),
          }),
        )
        // Said once, not by each connection, and with no stack: it is a setting to fix.
        expect(
          lines().filter((line) =>
            line.msg.startsWith('REDIS_URL names a database this Redis does not have'),
          ),
        ).toEqual([
          expect.objectContaining({
            level: 50,
            msg: 'REDIS_URL names a database this Redis does not have; not using Redis (fix REDIS_URL and restart)',
            db: 99,
            redisError: 'ERR DB index is out of range',
          }),
        ])
        // The rate limiter says its limits are off until REDIS_URL is fixed, not "until it is back".
        await vi.waitFor(() => expect(stdout()).toContain('rate-limit store'), { timeout: 5_000 })
        expect(lines().map((line) => line.msg)).toContain(
          'rate-limit store cannot use the database REDIS_URL names: limits are off until REDIS_URL is fixed and the process restarted',
        )
        expect(stdout()).not.toContain('"stack"')
        expect((await fetch(`${url}/readyz`)).status).toBe(503)
        // Longer than the waiting process looks again: nothing says it waits, or will be ready.
        await new Promise((resolve) => setTimeout(resolve, 1_500))
        for (const line of lines()) {
          expect(line.msg).not.toMatch(/waiting for|yet|retrying| ready/)
        }
        child.kill('SIGTERM')
        await exited(child, 5_000)
      } finally {
        await redis.remove()
      }
    },
  )

  it('warns in production when PUBLIC_URL is not set, as the cards then name localhost', async () => {
    expect(await logUntilReady({})).toContain(
      '"msg":"PUBLIC_URL is not set: the Agent Cards send clients to http://localhost:',
    )
    expect(await logUntilReady({ PUBLIC_URL: 'https://agent.example.com' })).not.toContain(
      'PUBLIC_URL is not set',
    )
  })

  it('logs request URLs without the value of a credential in the query string', async () => {
    const { child, url, stdout } = await startServer({ LOG_LEVEL: 'info' })
    const secret = 'eyJhbGciOiJIUzI1NiJ9.c2VjcmV0.c2ln'
    await fetch(
      `${url}/tasks/x?access_token=${secret}&historyLength=2&API_KEY=${secret}&jwt=${secret}&client_secret=${secret}`,
    )
    await vi.waitFor(() => expect(stdout()).toContain('"statusCode":'), { timeout: 5_000 })
    child.kill('SIGTERM')
    await exited(child, 5_000)
    expect(stdout()).toContain(
      '"url":"/tasks/x?access_token=[redacted]&historyLength=2&API_KEY=[redacted]&jwt=[redacted]&client_secret=[redacted]"',
    )
    expect(stdout()).not.toContain(secret)
  })

  it('exits with code 0 on SIGTERM, its last log line saying it has stopped', async () => {
    // Three at once: a line still being written at exit came out last in about 1 stop in 7.
    const servers = await Promise.all([1, 2, 3].map(() => startServer({ LOG_LEVEL: 'info' })))
    for (const { stdout } of servers) {
      await vi.waitFor(() => expect(stdout()).toContain(' ready'), { timeout: 5_000 })
    }
    for (const { child } of servers) child.kill('SIGTERM')
    for (const { child, stderr, stdout } of servers) {
      expect(await exited(child, 5_000), stderr()).toEqual({ code: 0, signal: null })
      const said = stdout()
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { msg: string }).msg)
      expect(said.slice(-2)).toEqual(['shutting down', 'stopped'])
    }
  })

  it('exits with code 0 on SIGINT', async () => {
    const { child, stderr } = await startServer()
    child.kill('SIGINT')
    expect(await exited(child, 5_000), stderr()).toEqual({ code: 0, signal: null })
  })

  it('closes the port once it has exited', async () => {
    const { child, url } = await startServer()
    child.kill('SIGTERM')
    await exited(child, 5_000)
    await expect(fetch(`${url}/healthz`)).rejects.toThrow()
  })

  it('names HOST or PORT when it cannot listen there', async () => {
    const { url } = await startServer()
    const port = new URL(url).port
    const busy = spawnServer({ HOST: '127.0.0.1', PORT: port })
    expect(await exited(busy.child, 10_000)).toEqual({ code: 1, signal: null })
    expect(busy.stderr()).toBe(
      `The server could not start: PORT: ${port} is already in use on 127.0.0.1 (EADDRINUSE)\n`,
    )
    const elsewhere = spawnServer({ HOST: '192.0.2.1', PORT: '0' })
    expect(await exited(elsewhere.child, 10_000)).toEqual({ code: 78, signal: null })
    expect(elsewhere.stderr()).toContain('HOST: 192.0.2.1 is not an address of this machine')
  })

  it('exits with code 78 and names the variable when a setting is bad', async () => {
    const { child, stderr } = spawnServer({ HOST: '127.0.0.1', PORT: '99999' })
    expect(await exited(child, 5_000)).toEqual({ code: 78, signal: null })
    expect(stderr()).toContain('Invalid configuration')
    expect(stderr()).toContain('  - PORT: must be from 0 to 65535 (got "99999")')
  })

  it('exits 78 naming a skill module whose import or factory never settles, instead of exiting 0 in silence', async () => {
    for (const module of ['never-settling-factory.js', 'never-settling-import.js']) {
      const specifier = join(root, 'test', 'fixtures', module)
      const { child, stderr } = spawnServer({ SKILL_MODULES: specifier })
      expect(await exited(child, 10_000)).toEqual({ code: 78, signal: null })
      expect(stderr()).toContain(
        `SKILL_MODULES: loading "${specifier}" never finished: its import or its factory awaits something that nothing will ever settle`,
      )
    }
  })

  it('exits 78 on an ES module skill in a CommonJS package, saying how to make it load', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a2a-skills-'))
    try {
      // What \`npm init -y\` writes, then the README's skill, which is an ES module.
      writeFileSync(join(dir, 'package.json'), '{"name":"my-skills","type":"commonjs"}\n')
      const specifier = join(dir, 'shout.js')
      writeFileSync(specifier, "export default { id: 'shout', execute: () => undefined }\n")
      const { child, stderr } = spawnServer({ SKILL_MODULES: specifier })
      expect(await exited(child, 10_000)).toEqual({ code: 78, signal: null })
      expect(stderr()).toContain(
        `SKILL_MODULES: cannot load "${specifier}": SyntaxError: Unexpected token 'export': Node reads "${specifier}" as CommonJS (a .cjs file, or the package.json nearest to it says "type": "commonjs", as npm init -y writes). Name it .mjs, or set "type": "module" in that package.json; a CommonJS module exports its skill with module.exports`,
      )
      // Never the loader's own file, which is where Node's error points.
      expect(stderr()).not.toContain('load.js')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('exits 78 on a skill module with a syntax error, saying how to find it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a2a-skills-'))
    try {
      const specifier = join(dir, 'syntax.mjs')
      writeFileSync(specifier, 'export default {\n  id: 1\n  name: 2 }\n')
      const { child, stderr } = spawnServer({ SKILL_MODULES: specifier })
      expect(await exited(child, 10_000)).toEqual({ code: 78, signal: null })
      expect(stderr()).toContain(
        `SKILL_MODULES: cannot load "${specifier}": SyntaxError: Unexpected identifier 'name' (\`node --check ${specifier}\`, or on the modules it imports, shows where)`,
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('names every bad variable at once', async () => {
    const { child, stderr } = spawnServer({ PORT: '-1', LOG_LEVEL: 'loud', BODY_LIMIT: '10' })
    expect(await exited(child, 5_000)).toEqual({ code: 78, signal: null })
    for (const name of ['PORT', 'LOG_LEVEL', 'BODY_LIMIT']) expect(stderr()).toContain(`- ${name}:`)
  })
})
