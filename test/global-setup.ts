/**
 * Before any test runs: the Redis the Redis-backed tests use (REDIS_URL, else 127.0.0.1:6379)
 * must answer, or the run stops at once with what to do, instead of failing file after file on
 * hook timeouts.
 */
import { Redis } from 'ioredis'

export default async function setup(): Promise<void> {
  const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  })
  redis.on('error', () => undefined) // reported below, once
  try {
    await redis.connect()
    await redis.ping()
  } catch (error) {
    throw new Error(
      `The tests need a Redis at ${url} (each test uses its own key prefix and cleans it up): ` +
        'start one with `redis-server`, or set REDIS_URL, or run `bash .ci/run`, which starts ' +
        `one if none answers. (${(error as Error).message})`,
      { cause: error },
    )
  } finally {
    redis.disconnect()
  }
}
