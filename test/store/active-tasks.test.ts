/** The ActiveTasks contract (src/store/active-tasks.ts), for memory and for Redis. */
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { ActiveTasks } from '../../src/store/active-tasks.js'
import { MemoryActiveTasks } from '../../src/store/memory/active-tasks.js'
import { keysUnder, useRedisStores } from '../helpers/redis.js'

const redis = useRedisStores()

const implementations: [string, () => { active: ActiveTasks; keys: () => Promise<string[]> }][] = [
  ['memory', () => ({ active: new MemoryActiveTasks(), keys: async () => [] })],
  [
    'redis',
    () => {
      const store = redis.store(0)
      return { active: store.activeTasks, keys: () => keysUnder(redis.redis(), store.prefix) }
    },
  ],
]

describe.each(implementations)('%s ActiveTasks', (_name, make) => {
  const LEASE = 60_000

  it('admits up to the cap, then refuses a caller, and not another caller', async () => {
    const { active } = make()
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()]
    expect(await active.admit('alice', a, 2, LEASE)).toBe(true)
    expect(await active.admit('alice', b, 2, LEASE)).toBe(true)
    expect(await active.admit('alice', c, 2, LEASE)).toBe(false)
    expect(await active.admit('bob', c, 2, LEASE)).toBe(true)
  })

  it('admits a task it holds again at the cap (a retry), and frees a slot on release', async () => {
    const { active } = make()
    const [a, b] = [randomUUID(), randomUUID()]
    expect(await active.admit('alice', a, 1, LEASE)).toBe(true)
    expect(await active.admit('alice', a, 1, LEASE)).toBe(true)
    expect(await active.admit('alice', b, 1, LEASE)).toBe(false)
    await active.release('alice', a)
    await active.release('alice', a)
    expect(await active.admit('alice', b, 1, LEASE)).toBe(true)
  })

  it('lets a lease lapse, so a lost release frees the slot in time', async () => {
    const { active, keys } = make()
    expect(await active.admit('alice', randomUUID(), 1, 50)).toBe(true)
    expect(await active.admit('alice', randomUUID(), 1, 50)).toBe(false)
    await new Promise((resolve) => setTimeout(resolve, 120))
    // Nothing outlives the last lease.
    expect(await keys()).toEqual([])
    expect(await active.admit('alice', randomUUID(), 1, 50)).toBe(true)
  })
})
