/**
 * Redis: tasks and events in the Redis store, turns through the Redis work queue. Every process
 * on the same REDIS_URL and REDIS_KEY_PREFIX is part of one server; ROLE says whether this one
 * serves the API (dispatches turns), runs turns (a worker), or both.
 *
 * Connections: one for commands, one blocking reader for the worker, one pub/sub subscriber
 * for the control channel, and one for the event-log followers, made with the first of them
 * (see store/redis/event-feed.ts).
 */
import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import type { Redis, RedisOptions } from 'ioredis'
import type { Logger } from 'pino'
import type { Config } from '../config.js'
import { QueueDispatcher } from '../dispatch/redis/queue-dispatcher.js'
import { ControlChannel } from '../dispatch/redis/control-channel.js'
import { QueueWorker } from '../dispatch/redis/worker.js'
import { watchForWorkers } from '../dispatch/redis/worker-watch.js'
import {
  blockingOptions,
  connectionName,
  connectRedis,
  credentialsRefused,
  duplicateRedis,
  notRedis,
  redisFailure,
} from '../store/redis/connection.js'
import { isDatabaseOutOfRange } from '../store/redis/database.js'
import { createRedisStore } from '../store/redis/index.js'
import { WorkQueue } from '../store/redis/work-queue.js'
import type { Backend } from './backend.js'

/** How long /readyz waits for Redis to answer PING. */
const PING_TIMEOUT_MS = 1000

export function redisBackend(config: Config & { REDIS_URL: string }, log: Logger): Backend {
  const prefix = config.REDIS_KEY_PREFIX
  // Unique per process: a consumer name in the work queue's group, and this process's channel.
  const consumer = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`
  const redis = connectRedis(config.REDIS_URL, connectionName(prefix, consumer))
  watchConnection(redis, log.child({ redis: 'commands' }))
  // Closed for good (connection.ts): no reconnection will reach the database the URL names.
  let databaseMissing = false
  redis.on('error', (error: Error) => {
    if (isDatabaseOutOfRange(error)) databaseMissing = true
  })
  const store = createRedisStore({
    redis,
    prefix,
    terminalTtlSeconds: config.TASK_RETENTION_SECONDS,
    log,
  })
  const queue = new WorkQueue(redis, prefix, consumer)
  const sweeper = startSweeper(store, config.TASK_SWEEP_INTERVAL_MS, log)
  const opened: { close(): void }[] = []

  return {
    tasks: store.tasks,
    events: store.events,
    activeTasks: store.activeTasks,

    dispatcher(runner, tasks) {
      const runsTurns = config.ROLE !== 'api'
      const servesApi = config.ROLE !== 'worker'
      const reader = runsTurns
        ? duplicate(redis, connectionName(prefix, `${consumer}:worker`), log, blockingOptions)
        : undefined
      const worker =
        reader &&
        new QueueWorker({
          queue,
          connection: reader,
          redis,
          runner,
          // The engine's store: a task the worker fails (its workers kept dying) is audited.
          store: tasks,
          events: store.events,
          log,
          concurrency: config.WORKER_CONCURRENCY,
          visibilityTimeoutMs: config.QUEUE_VISIBILITY_TIMEOUT_MS,
          maxAttempts: config.QUEUE_MAX_ATTEMPTS,
          onEnded: (origin, taskId, task) => {
            if (origin === consumer) dispatcher.turnEnded(taskId, task)
            else
              queue.publishEnded(origin, taskId).catch((error: unknown) => {
                log.warn({ err: error, taskId }, 'cannot tell the dispatching process a turn ended')
              })
          },
        })
      const dispatcher = new QueueDispatcher({
        queue,
        ...(worker && { worker }),
        stateOf: (taskId) => store.tasks.stateOf(taskId),
        log,
        // Longer than any blocking send waits, so none is cut short.
        endedTimeoutMs: config.SEND_WAIT_MS + 5000,
      })
      const channels: Record<string, (taskId: string) => void> = {}
      if (worker) channels[queue.keys.cancel] = (taskId) => worker.abort(taskId, 'canceled')
      if (servesApi) channels[queue.keys.ended(consumer)] = (taskId) => dispatcher.turnEnded(taskId)
      const control = new ControlChannel(
        duplicate(redis, connectionName(prefix, `${consumer}:control`), log, {
          autoResubscribe: false,
        }),
        {
          channels,
          onReconnected: () => {
            void worker?.recheck()
            void dispatcher.recheck()
          },
        },
        log,
      )
      control.start()
      opened.push(control)
      if (worker) {
        queue.ensureGroup().catch(() => undefined) // the reader creates it later if this fails
        worker.start()
      } else {
        const stopWatching = watchForWorkers({
          queue,
          visibilityTimeoutMs: config.QUEUE_VISIBILITY_TIMEOUT_MS,
          log,
          prefix,
          skillIds: runner.skillIds,
        })
        opened.push({ close: stopWatching })
      }
      return dispatcher
    },

    queuedTurns: () => queue.depth(),
    queueWorkers: async () => (await queue.liveWorkers(config.QUEUE_VISIBILITY_TIMEOUT_MS)).length,

    async unreachable() {
      if (redis.status !== 'ready') return ['redis']
      let timer: NodeJS.Timeout | undefined
      const timeUp = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS)
      })
      const pong = redis.ping().then(
        () => true,
        () => false,
      )
      const reachable = await Promise.race([pong, timeUp]).finally(() => clearTimeout(timer))
      return reachable ? [] : ['redis']
    },

    unusable: () => (databaseMissing ? [{ name: 'redis', setting: 'REDIS_URL' }] : []),

    async close() {
      clearInterval(sweeper)
      for (const connection of opened.splice(0)) connection.close()
      await store.close()
      await redis.quit().catch(() => redis.disconnect())
    },
  }
}

/** A second connection with the same settings; its errors are the caller's to handle. */
function duplicate(redis: Redis, name: string, log: Logger, options: RedisOptions = {}): Redis {
  const connection = duplicateRedis(redis, { ...options, connectionName: name })
  watchConnection(connection, log.child({ redis: name }), 'debug')
  return connection
}

/**
 * Logs an outage once (not every reconnection attempt), and the recovery. A database that this
 * Redis does not have is no outage: the connection closes for good (connection.ts; every
 * request then answers 503), and the log says to fix REDIS_URL. Refused credentials, and a
 * server that is not Redis, are said as such, even when the outage was logged already (a
 * server that is not Redis may first close the socket, EPIPE): they pass only once REDIS_URL
 * changes.
 */
function watchConnection(redis: Redis, log: Logger, level: 'warn' | 'debug' = 'warn'): void {
  let down = false
  let said: 'credentials' | 'not Redis' | undefined
  let reached = false
  redis.on('error', (error: Error) => {
    if (isDatabaseOutOfRange(error)) {
      // Said once, by the commands connection (every other one meets the same refusal); a
      // setting to fix, so no stack.
      log[level === 'warn' ? 'error' : 'debug'](
        { db: redis.options.db, redisError: error.message },
        'REDIS_URL names a database this Redis does not have; not using Redis (fix REDIS_URL and restart)',
      )
      return
    }
    const err = redisFailure(error)
    if (credentialsRefused(error)) {
      if (said !== 'credentials') {
        log.error({ err }, 'Redis refused the credentials in REDIS_URL; retrying')
      }
      said = 'credentials'
    } else if (notRedis(error)) {
      if (said !== 'not Redis') {
        log.error({ err }, 'what answers at REDIS_URL is not Redis; retrying (fix REDIS_URL)')
      }
      said = 'not Redis'
    } else if (!down) {
      log[level]({ err }, 'Redis is unreachable; reconnecting')
    }
    down = true
  })
  redis.on('ready', () => {
    if (down) log.info(reached ? 'Redis is reachable again' : 'Redis is reachable')
    down = false
    said = undefined
    reached = true
  })
}

/** Sweeps expired tasks from the list indexes every `intervalMs`, on every process (idempotent). */
function startSweeper(
  store: ReturnType<typeof createRedisStore>,
  intervalMs: number,
  log: Logger,
): NodeJS.Timeout {
  const batch = 500
  let busy = false
  return setInterval(() => {
    if (busy) return
    busy = true
    const sweep = async () => {
      while ((await store.tasks.sweep(batch)) === batch);
    }
    sweep()
      .catch((error: unknown) => log.debug({ err: error }, 'retention sweep failed'))
      .finally(() => (busy = false))
  }, intervalMs).unref()
}
