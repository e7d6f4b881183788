/**
 * The names a server's Redis connections carry in CLIENT LIST: each under REDIS_KEY_PREFIX, as
 * its keys are, so deployments sharing one Redis can be told apart. The real app on the real
 * Redis, one prefix per test.
 */
import type { FastifyInstance } from 'fastify'
import type { Redis } from 'ioredis'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createRedisStore } from '../../src/store/redis/index.js'
import { testApp } from '../helpers/app.js'
import { connectTestRedis, createdIn, deleteKeysUnder, testPrefix } from '../helpers/redis.js'

let redis: Redis
const apps: FastifyInstance[] = []
const prefixes: string[] = []
beforeAll(() => {
  redis = connectTestRedis()
})
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close()
  for (const prefix of prefixes.splice(0)) await deleteKeysUnder(redis, prefix)
})
afterAll(() => redis.quit())

/** The names of the connections open now that start with `start`, sorted. */
async function namesStartingWith(start: string): Promise<string[]> {
  const list = (await redis.client('LIST')) as string
  return list
    .split('\n')
    .map((line) => /(?:^| )name=(\S*)/.exec(line)?.[1] ?? '')
    .filter((name) => name.startsWith(start))
    .sort()
}

/** A server on the test Redis under `prefix`, with every connection a server opens. */
async function serverUnder(prefix: string, role = 'all'): Promise<FastifyInstance> {
  prefixes.push(prefix)
  const app = await testApp({
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_KEY_PREFIX: prefix,
    AUDIT_SINK: 'redis',
    RATE_LIMIT_MAX: '100',
    ROLE: role,
  })
  apps.push(app)
  return app
}

describe('Redis connection names', () => {
  it('name every connection of a server under its REDIS_KEY_PREFIX', async () => {
    const prefix = testPrefix()
    await serverUnder(prefix)

    await expect.poll(() => namesStartingWith(prefix), { timeout: 5000 }).toHaveLength(6)
    const names = await namesStartingWith(prefix)
    // The process's consumer name in the work queue: host:pid:random.
    const consumer = names.find((name) => name.endsWith(':worker'))!.slice(prefix.length, -7)
    expect(names).toEqual(
      [
        `${prefix}audit`,
        `${prefix}rate-limit`,
        `${prefix}registry`,
        `${prefix}${consumer}`,
        `${prefix}${consumer}:control`,
        `${prefix}${consumer}:worker`,
      ].sort(),
    )
  })

  it('opens no rate-limit connection in a worker, which serves only the probes', async () => {
    const prefix = testPrefix()
    await serverUnder(prefix, 'worker')

    await expect.poll(() => namesStartingWith(prefix), { timeout: 5000 }).toHaveLength(5)
    const names = await namesStartingWith(prefix)
    expect(names).not.toContain(`${prefix}rate-limit`)
    expect(names).toContain(`${prefix}audit`)
  })

  it('names the event-log feed under the prefix too', async () => {
    const prefix = testPrefix()
    prefixes.push(prefix)
    const store = createRedisStore({ redis, prefix, terminalTtlSeconds: 60 })
    try {
      const task = await createdIn({ ...store, prefix })
      const following = new AbortController()
      const events = store.events.follow(task.id, undefined, following.signal)
      await events[Symbol.asyncIterator]().next()
      expect(await namesStartingWith(prefix)).toEqual([`${prefix}events`])
      following.abort()
    } finally {
      await store.close()
    }
  })

  it('replaces what CLIENT SETNAME refuses in a prefix, so the connections are still named', async () => {
    const unique = testPrefix().slice('test:a2a:'.length)
    await serverUnder(`test:a2a:tést:${unique}`)

    const named = `test:a2a:t_st:${unique}`
    await expect.poll(() => namesStartingWith(named), { timeout: 5000 }).toHaveLength(6)
    expect(await namesStartingWith(named)).toContain(`${named}registry`)
  })
})
