/**
 * The Redis connection a server process runs on. While Redis is down, commands fail within one
 * reconnection attempt (so a request answers 503 at once instead of hanging) and the client
 * reconnects by itself, forever, with a capped backoff. `redisFailure` is the one place that
 * decides which failures mean "Redis is not reachable right now", and says so in plain words.
 */
import { Redis } from 'ioredis'
import type { RedisOptions } from 'ioredis'
import { ServiceUnavailableError } from '../../domain/errors.js'
import { coalesceWrites } from './coalesced-writes.js'
import { isDatabaseOutOfRange } from './database.js'

/** The longest pause between two reconnection attempts, and so the longest a request waits. */
export const RECONNECT_CAP_MS = 1000

export const connectionOptions: RedisOptions = {
  // A command queued while disconnected waits for the next attempt only; a command in flight
  // when the connection drops fails rather than being sent again (scripts are not idempotent).
  maxRetriesPerRequest: 0,
  retryStrategy: (attempt) => Math.min(50 * 2 ** Math.min(attempt, 5), RECONNECT_CAP_MS),
  // An unroutable host fails the attempt in 2 s instead of the default 10 s.
  connectTimeout: 2000,
  // No auto-pipelining: its queue holds a command issued during an outage until Redis is back,
  // instead of failing it within one attempt (a turn's outcome would land late, not run again).
  // Writes are coalesced at the socket instead (coalesced-writes.ts).
}

/** For a connection that blocks (XREAD, XREADGROUP): a commandTimeout would cut a BLOCK short. */
export const blockingOptions: RedisOptions = { commandTimeout: undefined }

/**
 * A connection's name, as CLIENT LIST and the log show it: `role` under the key prefix, like a
 * key (`a2a:audit`), so deployments that share one Redis under different prefixes can be told
 * apart. CLIENT SETNAME refuses spaces, newlines and anything outside printable ASCII (ioredis
 * then leaves the connection unnamed), so each such character becomes `_`.
 */
export function connectionName(prefix: string, role: string): string {
  return `${prefix}${role}`.replace(/[^!-~]/gu, '_')
}

/**
 * Opens a connection; `name` (see connectionName) shows in CLIENT LIST. It connects in the background, and sends the
 * commands of one event-loop turn in one write (coalesced-writes.ts).
 */
export function connectRedis(url: string, name: string, options: RedisOptions = {}): Redis {
  return refuseMissingDatabase(
    coalesceWrites(new Redis(url, { ...connectionOptions, connectionName: name, ...options })),
  )
}

/** A second connection with the settings of `redis` (and `options` on top), guarded alike. */
export function duplicateRedis(redis: Redis, options: RedisOptions): Redis {
  return refuseMissingDatabase(redis.duplicate(options))
}

/**
 * Closes `redis` for good when Redis refuses the database its URL names (database.ts): ioredis
 * would carry on in database 0. Its commands then fail as while Redis is away (503).
 */
function refuseMissingDatabase(redis: Redis): Redis {
  redis.on('error', (error: Error) => {
    if (isDatabaseOutOfRange(error)) redis.disconnect()
  })
  return redis
}

/** A connection error or a Redis refusal that passes once Redis is back (or less loaded). */
const TRANSIENT_REPLY = /^(LOADING|BUSY|MASTERDOWN|READONLY|OOM|CLUSTERDOWN|TRYAGAIN|MISCONF)\b/
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
])

/** Redis refused this server's credentials (a wrong or missing password in REDIS_URL). */
const CREDENTIALS_REFUSED = /^(WRONGPASS|NOAUTH)\b/

export const credentialsRefused = (error: Error): boolean => CREDENTIALS_REFUSED.test(error.message)

/** What ioredis' reply parser says of a server at REDIS_URL that does not speak Redis. */
const NOT_REDIS = /^(Unknown RESP type|Protocol error)\b/

export const notRedis = (error: Error): boolean => NOT_REDIS.test(error.message)

/**
 * A failure of Redis, said as what happened. It replaces the ioredis error rather than wrapping
 * it: the log prints an error's causes, and ioredis' texts name its own internals ("Reached the
 * max retries per request limit (which is 0). Refer to "maxRetriesPerRequest" option…", or
 * "Unknown RESP type 72 "H". Please report this.").
 */
export class RedisUnavailableError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'RedisUnavailableError'
  }
}

/** What `error`, from ioredis or Redis, means; undefined when it is no Redis outage. */
function whatHappened(error: Error): string | undefined {
  const { name, message } = error
  const code = (error as { code?: unknown }).code
  if (NOT_REDIS.test(message)) return 'what answers at REDIS_URL is not Redis'
  if (CREDENTIALS_REFUSED.test(message)) {
    return `Redis refused the credentials in REDIS_URL (${message})`
  }
  if (TRANSIENT_REPLY.test(message)) return `Redis cannot serve now (${message})`
  if (message === 'Command timed out') return 'Redis did not answer in time'
  if (typeof code === 'string' && SOCKET_CODES.has(code)) return `Redis is unreachable (${message})`
  // A command sent, or queued, while the connection was down: ioredis' texts for it.
  if (
    name === 'MaxRetriesPerRequestError' ||
    message === 'Connection is closed.' ||
    message.startsWith("Stream isn't writeable")
  ) {
    return 'Redis is unreachable'
  }
  return undefined
}

/**
 * The one place that tells Redis outages from other failures: `error` (or an error in its
 * `cause` chain) said as a RedisUnavailableError when it means Redis cannot serve right now
 * (unreachable, busy, refusing this server's credentials, or not Redis at all); any other
 * error as it is.
 */
export function redisFailure(error: unknown): unknown {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    if (current instanceof RedisUnavailableError) return current
    const happened = whatHappened(current)
    if (happened !== undefined) return new RedisUnavailableError(happened)
    current = current.cause
  }
  return error
}

/** True when `error` means Redis cannot serve right now (see redisFailure): a 503, not a 500. */
export const redisUnavailable = (error: unknown): boolean =>
  redisFailure(error) instanceof RedisUnavailableError

/** What a caller sees while Redis is unreachable: 503, with the Redis error kept for the log. */
export function storeUnavailable(cause: unknown): ServiceUnavailableError {
  return new ServiceUnavailableError('The task store is unavailable; try again shortly', {
    cause: redisFailure(cause),
  })
}

/** Runs `operation`; a Redis outage becomes ServiceUnavailableError, anything else passes through. */
export async function whileReachable<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation()
  } catch (error) {
    throw redisUnavailable(error) ? storeUnavailable(error) : error
  }
}
