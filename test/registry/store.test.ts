/** The RegistryStore contract, run against the memory store and the Redis store (real Redis). */
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import type { AgentEntry } from '../../src/registry/entry.js'
import { MemoryRegistryStore } from '../../src/registry/memory-store.js'
import { RedisRegistryStore } from '../../src/registry/redis-store.js'
import type { RegistryStore } from '../../src/registry/store.js'
import { connectTestRedis, deleteKeysUnder, keysUnder, testPrefix } from '../helpers/redis.js'

const entry = (id: string, revision = 1): AgentEntry => ({
  id,
  url: `http://agent-${id}.test`,
  cardUrl: `http://agent-${id}.test/.well-known/agent-card.json`,
  name: `Agent ${id}`,
  dialect: 'jsonrpc-1.0',
  endpoint: `http://agent-${id}.test/a2a`,
  streaming: true,
  skills: [{ id: 'translate', name: 'Translate', tags: ['language'] }],
  health: 'healthy',
  consecutiveFailures: 0,
  registeredAt: '2026-01-01T00:00:00.000Z',
  lastCheckedAt: '2026-01-01T00:00:00.000Z',
  nextCheckAt: '2026-01-01T00:00:30.000Z',
  revision,
})

const redis = connectTestRedis()
const prefixes: string[] = []
afterEach(async () => {
  for (const prefix of prefixes.splice(0)) await deleteKeysUnder(redis, prefix)
})
afterAll(() => redis.quit())

describe.each([
  ['memory', () => new MemoryRegistryStore() as RegistryStore],
  [
    'Redis',
    () => {
      const prefix = testPrefix()
      prefixes.push(prefix)
      return new RedisRegistryStore({ redis, prefix })
    },
  ],
])('RegistryStore (%s)', (_name, open) => {
  it('adds an entry once; a second add of the same id changes nothing', async () => {
    const store = open()
    expect(await store.add(entry('a'))).toBe(true)
    expect(await store.add({ ...entry('a'), name: 'other' })).toBe(false)
    expect(await store.get('a')).toEqual(entry('a'))
    expect(await store.list()).toEqual([entry('a')])
  })

  it('replaces an entry only from the revision it was read at', async () => {
    const store = open()
    await store.add(entry('a'))
    expect(await store.replace({ ...entry('a', 2), health: 'unhealthy' })).toBe(true)
    expect(await store.replace({ ...entry('a', 2), name: 'stale' })).toBe(false)
    expect(await store.get('a')).toMatchObject({
      revision: 2,
      health: 'unhealthy',
      name: 'Agent a',
    })
  })

  it('lists entries in the order they were added; a replaced one keeps its place', async () => {
    const store = open()
    for (const id of ['c', 'a', 'b']) await store.add(entry(id))
    await store.replace({ ...entry('c', 2), health: 'unhealthy' })
    expect((await store.list()).map((e) => e.id)).toEqual(['c', 'a', 'b'])
    await store.remove('a')
    await store.add(entry('a'))
    expect((await store.list()).map((e) => e.id)).toEqual(['c', 'b', 'a'])
  })

  it('never brings back a removed entry', async () => {
    const store = open()
    await store.add(entry('a'))
    expect(await store.remove('a')).toBe(true)
    expect(await store.remove('a')).toBe(false)
    expect(await store.replace(entry('a', 2))).toBe(false)
    expect(await store.get('a')).toBeUndefined()
    expect(await store.list()).toEqual([])
  })

  it('gives the check due at one time to one claimant only, and the next one anew', async () => {
    const store = open()
    const due = '2026-01-01T00:00:30.000Z'
    expect(await store.claimCheck('a', due, 1_000)).toBe(true)
    expect(await store.claimCheck('a', due, 1_000)).toBe(false)
    expect(await store.claimCheck('b', due, 1_000)).toBe(true)
    expect(await store.claimCheck('a', '2026-01-01T00:01:00.000Z', 1_000)).toBe(true)
  })

  it('lets a claim lapse after its time', async () => {
    const store = open()
    expect(await store.claimCheck('a', 'due', 50)).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 120))
    expect(await store.claimCheck('a', 'due', 50)).toBe(true)
  })
})

describe('RedisRegistryStore keys', () => {
  it('keeps the entries, their order and each claim in keys under the {agents} tag', async () => {
    const prefix = testPrefix()
    prefixes.push(prefix)
    const store = new RedisRegistryStore({ redis, prefix })
    await store.add(entry('a'))
    await store.claimCheck('a', 'T', 10_000)
    expect((await keysUnder(redis, prefix)).sort()).toEqual([
      `${prefix}registry:{agents}`,
      `${prefix}registry:{agents}:check:a:T`,
      `${prefix}registry:{agents}:order`,
    ])
    expect(JSON.parse((await redis.hget(`${prefix}registry:{agents}`, 'a'))!)).toEqual(entry('a'))
  })

  it('lists an entry stored before the order was kept after the ordered ones', async () => {
    const prefix = testPrefix()
    prefixes.push(prefix)
    const store = new RedisRegistryStore({ redis, prefix })
    await redis.hset(`${prefix}registry:{agents}`, 'old', JSON.stringify(entry('old')))
    await store.add(entry('new'))
    expect((await store.list()).map((e) => e.id)).toEqual(['new', 'old'])
  })
})
