/** A real Redis for tests: one connection per file, a random key prefix per test, cleaned after. */
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, afterEach, beforeAll } from 'vitest'
import type { Task, TaskState } from '../../src/domain/model.js'
import { createRedisStore } from '../../src/store/redis/index.js'
import { newTask } from '../store/contract.js'

export const connectTestRedis = (): Redis =>
  new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 2 })

/** A prefix no other test uses; it has no glob characters, so `${prefix}*` matches only its keys. */
export const testPrefix = (): string => `test:a2a:${randomUUID()}:`

/** Every key under `prefix` (never FLUSHDB: other tests and users share this Redis). */
export async function keysUnder(redis: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = []
  let cursor = '0'
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000)
    keys.push(...batch)
    cursor = next
  } while (cursor !== '0')
  return [...new Set(keys)]
}

export async function deleteKeysUnder(redis: Redis, prefix: string): Promise<void> {
  const keys = await keysUnder(redis, prefix)
  if (keys.length > 0) await redis.unlink(...keys)
}

/**
 * Registers the hooks of a test file whose apps run on the real Redis, and returns what makes
 * the settings of one (a fresh key prefix, whose keys are deleted after each test). Call it
 * before the file's own afterEach: hooks after a test run last-registered first, so the apps
 * close before their keys go.
 */
export function useRedisSettings(): () => Record<string, string> {
  const cleanups: (() => Promise<unknown>)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup()
  })
  return () => {
    const prefix = testPrefix()
    const redis = connectTestRedis()
    cleanups.push(async () => {
      await deleteKeysUnder(redis, prefix)
      await redis.quit()
    })
    return {
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_KEY_PREFIX: prefix,
    }
  }
}

/**
 * The app in memory and on the real Redis, for `describe.each`: a name, and its settings (see
 * useRedisSettings, whose hooks this registers; call it as early).
 */
export function useBackends(): [name: string, settings: () => Record<string, string>][] {
  return [
    ['in memory', () => ({})],
    ['on Redis', useRedisSettings()],
  ]
}

export type TestRedisStore = ReturnType<typeof createRedisStore> & { prefix: string }

/**
 * Registers the hooks of a test file that uses Redis stores: one connection for the file, and
 * `store()` for a store on a fresh prefix that is closed and whose keys are deleted after each test.
 */
export function useRedisStores() {
  let redis: Redis | undefined
  const opened: TestRedisStore[] = []
  beforeAll(() => {
    redis = connectTestRedis()
  })
  afterEach(async () => {
    for (const store of opened.splice(0)) {
      await store.close()
      await deleteKeysUnder(connection(), store.prefix)
    }
  })
  afterAll(() => connection().quit())
  const connection = (): Redis => {
    if (!redis) throw new Error('useRedisStores: Redis is connected in beforeAll')
    return redis
  }
  const store = (terminalTtlSeconds: number): TestRedisStore => {
    const prefix = testPrefix()
    const opening = {
      ...createRedisStore({ redis: connection(), prefix, terminalTtlSeconds }),
      prefix,
    }
    opened.push(opening)
    return opening
  }
  return { redis: connection, store }
}

/** Creates a fresh task (see newTask) in `store`, with its first event. */
export async function createdIn(store: TestRedisStore, overrides: Partial<Task> = {}) {
  const task = newTask(overrides)
  await store.tasks.create(task, {
    kind: 'status-update',
    taskId: task.id,
    contextId: task.contextId,
    status: task.status,
    final: false,
  })
  return task
}

/** A status change to `state`, stamped now. */
export const to = (state: TaskState) => ({
  kind: 'status' as const,
  status: { state, timestamp: new Date().toISOString() },
})
