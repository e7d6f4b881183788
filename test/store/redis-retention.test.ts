/** Retention: terminal tasks and their events expire, and no index entry outlives them. */
import { describe, expect, it } from 'vitest'
import { taskKeys } from '../../src/store/redis/keys.js'
import type { TestRedisStore } from '../helpers/redis.js'
import { createdIn, to, useRedisStores } from '../helpers/redis.js'

const { redis: connection, store: storeWith } = useRedisStores()

/** The task ids in one of a store's index sorted sets, e.g. `all` or `owner:alice`. */
const indexed = (store: TestRedisStore, index: string) =>
  connection().zrange(`${store.prefix}tasks:{idx}:${index}`, 0, '-1')

/** The task ids of a store's retention records, and when sweep looks at each (ms). */
const records = async (store: TestRedisStore) => {
  const reply = await connection().zrange(
    `${store.prefix}tasks:{idx}:expiring`,
    0,
    '-1',
    'WITHSCORES',
  )
  const pairs: { taskId: string; lookAt: number }[] = []
  for (let i = 0; i < reply.length; i += 2) {
    pairs.push({ taskId: (JSON.parse(reply[i]!) as string[])[0]!, lookAt: Number(reply[i + 1]) })
  }
  return pairs
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

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
    // The open task's record stays, to be looked at again a retention period later.
    expect((await records(store)).map((r) => r.taskId)).toEqual([open.id])
    expect(await store.tasks.sweep()).toBe(0)
  })

  it('removes the entries of a task whose final index write was lost, once it has expired', async () => {
    const store = storeWith(1)
    const task = await createdIn(store, { owner: 'alice' })
    await store.tasks.list({ pageSize: 1 })
    // What a process that dies right after a task's final write leaves: its keys expiring (as
    // apply.lua sets them), its index entries and retention record from the create, nothing more.
    const { task: key, events } = taskKeys(store.prefix, task.id)
    for (const k of [key, events]) await connection().pexpire(k, 300)
    await sleep(1100)

    expect(await store.tasks.sweep()).toBe(1)
    for (const index of ['all', 'owner:alice', `context:${task.contextId}`, 'expiring']) {
      expect(await indexed(store, index)).toEqual([])
    }
  })

  it('keeps the entries of a task still open when its record comes due, and looks again later', async () => {
    const store = storeWith(1)
    const task = await createdIn(store, { owner: 'alice' })
    await store.tasks.list({ pageSize: 1 })
    await sleep(1100)
    const sweptAt = Date.now()

    expect(await store.tasks.sweep()).toBe(0)
    expect(await indexed(store, 'owner:alice')).toEqual([task.id])
    const [record] = await records(store)
    expect(record?.taskId).toBe(task.id)
    expect(record!.lookAt).toBeGreaterThanOrEqual(sweptAt + 900)
  })

  it('keeps the entries of a new task that reuses an expired task’s id through sweep', async () => {
    const store = storeWith(1)
    const ended = await createdIn(store, { owner: 'alice' })
    await store.tasks.apply(ended.id, to('canceled'))
    await new Promise((resolve) => setTimeout(resolve, 1100))
    const reused = await createdIn(store, { id: ended.id, owner: 'alice' })

    expect(await store.tasks.sweep()).toBe(0)
    expect(await indexed(store, 'owner:alice')).toEqual([reused.id])
    expect((await store.tasks.list({ owner: 'alice', pageSize: 5 })).tasks).toEqual([reused])
    // The old record waits for the id to be free again, then cleans up the old context too.
    expect((await records(store)).map((r) => r.taskId)).toEqual([ended.id, ended.id])
  })

  it('sweeps nothing that has not expired yet', async () => {
    const store = storeWith(60)
    const task = await createdIn(store)
    await store.tasks.apply(task.id, to('canceled'))
    expect(await store.tasks.sweep()).toBe(0)
    expect(await indexed(store, 'all')).toEqual([task.id])
    expect(await records(store)).toMatchObject([{ taskId: task.id }])
  })
})
