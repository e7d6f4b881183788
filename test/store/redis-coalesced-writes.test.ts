/**
 * A connection from connectRedis sends the commands of one event-loop turn in one write. Seen at
 * the socket: the stream layer hands the kernel one batch (`_writev`) instead of one write per
 * command (`_write`).
 */
import type { Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { connectRedis } from '../../src/store/redis/connection.js'
import { testPrefix } from '../helpers/redis.js'

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'

const closers: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

/** Counts the socket's writes to the kernel from now on. */
function countWrites(socket: Socket) {
  const counted = socket as unknown as Record<'_write' | '_writev', (...args: unknown[]) => void>
  const count = { writes: 0 }
  for (const method of ['_write', '_writev'] as const) {
    const original = counted[method].bind(socket)
    counted[method] = (...args) => {
      count.writes++
      original(...args)
    }
  }
  return count
}

describe('Redis connections: one write per turn', () => {
  it('sends a turn’s commands together, answers each, and keeps their order', async () => {
    const redis = connectRedis(REDIS_URL, 'a2a:test:coalesced')
    closers.push(() => redis.quit())
    await redis.ping()
    const key = `${testPrefix()}list`
    closers.push(() => redis.del(key))
    const count = countWrites(redis.stream)
    const replies = await Promise.all(
      Array.from({ length: 100 }, (_, n) => redis.rpush(key, String(n))),
    )
    expect(count.writes).toBe(1)
    expect(replies).toEqual(Array.from({ length: 100 }, (_, n) => n + 1))
    expect(await redis.lrange(key, 0, -1)).toEqual(Array.from({ length: 100 }, (_, n) => `${n}`))
  })
})
