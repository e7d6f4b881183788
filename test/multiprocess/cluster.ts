/**
 * Several real server processes (`node dist/server.js`, the built output) on one Redis, for the
 * multi-process tests: each on a free loopback port, all with the test's own key prefix and the
 * skills of test/fixtures/queue-skills.js. `useCluster()` registers the hooks that build dist/
 * once, kill every process a test started and delete its keys and records afterwards.
 */
import { execFileSync, spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Redis } from 'ioredis'
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
import { TEST_SECRET } from '../helpers/auth.js'
import { connectTestRedis, deleteKeysUnder, testPrefix } from '../helpers/redis.js'

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

export interface Server {
  name: string
  url: string
  child: ChildProcess
  pid: number
  stderr: () => string
  /** Resolves once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

/** A line of a fixture skill's record (test/fixtures/queue-skills.js). */
export interface SkillRecord {
  pid: number
  at: number
  event: 'start' | 'abort' | 'answer'
  reason?: string
  text?: string
}

import { freePort } from '../helpers/free-port.js'

export { freePort }

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 10_000,
  everyMs = 25,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}

/** Registers the hooks; returns what a test needs to start servers on the shared test Redis. */
export function useCluster(defaults: Record<string, string> = {}) {
  const children = new Set<ChildProcess>()
  let redis: Redis | undefined
  let prefix = ''
  let records = ''
  let redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'

  beforeAll(() => {
    if (!existsSync(join(root, 'dist', 'server.js'))) {
      execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'pipe', timeout: 180_000 })
    }
    redis = connectTestRedis()
  }, 200_000)
  afterEach(async () => {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    }
    children.clear()
    await deleteKeysUnder(connection(), prefix)
    if (records) rmSync(records, { recursive: true, force: true })
  })
  afterAll(() => connection().quit())
  // A fresh prefix, record folder and Redis for every test.
  beforeEach(() => {
    prefix = testPrefix()
    records = mkdtempSync(join(tmpdir(), 'a2a-records-'))
    redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
  })

  const connection = (): Redis => {
    if (!redis) throw new Error('useCluster: Redis is connected in beforeAll')
    return redis
  }

  /** Starts `node dist/server.js` and waits until /healthz answers. */
  async function start(name: string, env: Record<string, string> = {}): Promise<Server> {
    const port = await freePort()
    const child = spawn(process.execPath, ['dist/server.js'], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        AUTH_JWT_SECRET: TEST_SECRET,
        LOG_LEVEL: 'error',
        HOST: '127.0.0.1',
        PORT: String(port),
        REDIS_URL: redisUrl,
        REDIS_KEY_PREFIX: prefix,
        BUNDLED_SKILLS: 'echo',
        SKILL_MODULES: 'test/fixtures/queue-skills.js',
        A2A_TEST_RECORDS: records,
        SHUTDOWN_GRACE_MS: '500',
        ...defaults,
        ...env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    children.add(child)
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    )
    const url = `http://127.0.0.1:${port}`
    await waitFor(`${name} to answer /healthz`, async () => {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}):\n${stderr}`)
      }
      const response = await fetch(`${url}/healthz`).catch(() => undefined)
      return response?.ok ? true : undefined
    })
    return { name, url, child, pid: child.pid!, stderr: () => stderr, exited }
  }

  /** What the fixture skills recorded for a task, in order. */
  function recorded(taskId: string): SkillRecord[] {
    const file = join(records, `${taskId}.jsonl`)
    if (!existsSync(file)) return []
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as SkillRecord)
  }

  return {
    start,
    recorded,
    redis: connection,
    /** This test's key prefix. */
    prefix: () => prefix,
    /** Points the next servers at another Redis (e.g. a private one). */
    useRedis: (url: string) => {
      redisUrl = url
    },
  }
}
