/** Retention: terminal tasks and their events expire, and no index entry outlives them. */
import { describe, expect, it } from 'vitest'
import { taskKeys } from '../../src/store/redis/keys.js'
import type { TestRedisStore } from '../helpers/redis.js'
import { createdIn, to, useRedisStores } from '../helpers/redis.js'

const { redis: connection, store: storeWith } = useRedisStores()

/** The task ids in one of a store's index sorted sets, e.g. `all` or `owner:alice`. */
const indexed = (store: TestRedisStore, index: string) =>
  connection().zrange(`${store.prefix}tasks:{idx}:${index}`, 0, '-1')

describe('Redis store: retention of terminal tasks', () => {
  it('sets a TTL on a task and its events when it ends, and none while it is open', async () => {
    const store = storeWith(60)
    const task = await createdIn(store)
    const { task: key, events } = taskKeys(store.prefix, task.id)
    await store.tasks.apply(task.id, to('working'))
    expect([await connection().pttl(key), await connection().pttl(events)]).toEqual([-1, -1])
    await store.tasks.apply(task.id, to('completed'))
    for (const ttl of [await connection().pttl(key), await connection().pttl(events)]) {
      expect(ttl).toBeGreaterThan(55_000)
      expect(ttl).toBeLessThanOrEqual(60_000)
    }
  })

  it('keeps terminal tasks forever when the TTL is 0', async () => {
    const store = storeWith(0)
    const task = await createdIn(store)
    await store.tasks.apply(task.id, to('rejected'))
    expect(await connection().pttl(taskKeys(store.prefix, task.id).task)).toBe(-1)
    expect(await store.tasks.sweep()).toBe(0)
  })

  it('drops an expired task from list, and sweep removes it from every index', async () => {
    const store = storeWith(1)
    const ended = await createdIn(store, { owner: 'alice' })
    const open = await createdIn(store, { owner: 'alice', contextId: ended.contextId })
    await store.tasks.apply(ended.id, to('failed'))
    await new Promise((resolve) => setTimeout(resolve, 1100))

    const page = await store.tasks.list({ owner: 'alice', pageSize: 10 })
    expect(page.tasks.map((task) => task.id)).toEqual([open.id])
    expect(page.totalSize).toBe(1)
    expect(await indexed(store, 'owner:alice')).toEqual([open.id])

    expect(await store.tasks.sweep()).toBe(1)
    expect(await indexed(store, 'all')).toEqual([open.id])
    expect(await indexed(store, `context:${ended.contextId}`)).toEqual([open.id])
    expect(await indexed(store, 'expiring')).toEqual([])
    expect(await store.tasks.sweep()).toBe(0)
  })

  it('keeps the entries of a new task that reuses an expired task’s id through sweep', async () => {
    const store = storeWith(1)
    const ended = await createdIn(store, { owner: 'alice' })
    await store.tasks.apply(ended.id, to('canceled'))
    await new Promise((resolve) => setTimeout(resolve, 1100))
    const reused = await createdIn(store, { id: ended.id, owner: 'alice' })

    expect(await store.tasks.sweep()).toBe(0)
    expect(await indexed(store, 'expiring')).toEqual([])
    expect(await indexed(store, 'owner:alice')).toEqual([reused.id])
    expect((await store.tasks.list({ owner: 'alice', pageSize: 5 })).tasks).toEqual([reused])
  })

  it('sweeps nothing that has not expired yet', async () => {
    const store = storeWith(60)
    const task = await createdIn(store)
    await store.tasks.apply(task.id, to('canceled'))
    expect(await store.tasks.sweep()).toBe(0)
    expect(await indexed(store, 'all')).toEqual([task.id])
    expect(await indexed(store, 'expiring')).toHaveLength(1)
  })
})
