/**
 * The Redis store: tasks and their event logs on one Redis (or Redis Cluster; see keys.ts).
 * Several server processes on one Redis behave as one server.
 */
import type { Redis } from 'ioredis'
import type { Logger } from 'pino'
import { RedisActiveTasks } from './active-tasks.js'
import { RedisEventLog } from './event-log.js'
import { assertUsablePrefix } from './keys.js'
import { defineTaskScripts } from './scripts.js'
import { RedisTaskStore } from './task-store.js'

export { RedisEventLog } from './event-log.js'
export { RedisTaskStore } from './task-store.js'

export interface RedisStoreOptions {
  /** The caller's connection: the caller opens and closes it. */
  redis: Redis
  /** Prepended to every key, e.g. `a2a:`; no braces. */
  prefix: string
  /** How long a terminal task and its events are kept; 0 keeps them forever. */
  terminalTtlSeconds: number
  /** Where a failed index write is reported (it is repaired later). */
  log?: Pick<Logger, 'warn'>
}

export function createRedisStore({ redis, prefix, terminalTtlSeconds, log }: RedisStoreOptions) {
  assertUsablePrefix(prefix)
  if (!Number.isInteger(terminalTtlSeconds) || terminalTtlSeconds < 0) {
    throw new Error(`terminalTtlSeconds must be a whole number ≥ 0, got ${terminalTtlSeconds}`)
  }
  const scripts = defineTaskScripts(redis)
  const events = new RedisEventLog(redis, prefix)
  const tasks = new RedisTaskStore({
    redis,
    prefix,
    terminalTtlSeconds,
    scripts,
    onIndexError: (error, taskId) =>
      log?.warn({ err: error, taskId }, 'a task index write failed; it is repaired later'),
  })
  return {
    tasks,
    events,
    activeTasks: new RedisActiveTasks(redis, prefix, scripts),
    /**
     * Waits for index writes in flight, then closes what the store opened (the followers'
     * pub/sub connection), not the caller's connection.
     */
    close: async () => {
      await tasks.settled()
      await events.close()
    },
  }
}

export type RedisStore = ReturnType<typeof createRedisStore>
