import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { MemoryEventLog } from '../../src/store/memory/event-log.js'
import { Retention } from '../../src/store/memory/retention.js'
import type { Task } from '../../src/domain/model.js'
import { MemoryTaskStore } from '../../src/store/memory/task-store.js'
import type { FullStoreNotice } from '../../src/store/memory/task-store.js'
import { newTask } from './contract.js'

describe('retention of finished tasks in memory', () => {
  it('forgets tasks in the order they ended, once their time is up', () => {
    let clock = 0
    const forgotten: string[] = []
    const retention = new Retention(
      1000,
      (id) => forgotten.push(id),
      () => clock,
    )
    retention.expireLater('a')
    clock = 500
    retention.expireLater('b')
    clock = 999
    retention.sweep()
    expect(forgotten).toEqual([])
    clock = 1000
    retention.sweep()
    expect(forgotten).toEqual(['a'])
    clock = 5000
    retention.sweep()
    expect(forgotten).toEqual(['a', 'b'])
    retention.stop()
  })

  it('keeps everything when the TTL is 0', () => {
    const forgotten: string[] = []
    const retention = new Retention(
      0,
      (id) => forgotten.push(id),
      () => Number.MAX_SAFE_INTEGER,
    )
    retention.expireLater('a')
    retention.sweep()
    expect(forgotten).toEqual([])
  })

  it('forgets the task that ended first on demand, with or without a TTL', () => {
    for (const ttl of [0, 60_000]) {
      const forgotten: string[] = []
      const retention = new Retention(ttl, (id) => forgotten.push(id))
      expect(retention.forgetOldest()).toBe(false)
      for (const id of ['a', 'b', 'c']) retention.expireLater(id)
      expect(retention.forgetOldest()).toBe(true)
      expect(retention.forgetOldest()).toBe(true)
      expect(forgotten).toEqual(['a', 'b'])
      expect(retention.size).toBe(1)
      retention.stop()
    }
  })

  it('never forgets a task twice, whether its time ran out or room was made', () => {
    let clock = 0
    const forgotten: string[] = []
    const retention = new Retention(
      100,
      (id) => forgotten.push(id),
      () => clock,
    )
    retention.expireLater('a')
    retention.expireLater('b')
    expect(retention.forgetOldest()).toBe(true)
    clock = 100
    retention.sweep()
    expect(retention.forgetOldest()).toBe(false)
    expect(forgotten).toEqual(['a', 'b'])
    retention.stop()
  })

  it('drops a terminal task and its events from the store after the TTL, and keeps open ones', async () => {
    const events = new MemoryEventLog()
    const store = new MemoryTaskStore(events, { terminalTtlMs: 20 })
    const finished = newTask()
    const open = newTask({ id: randomUUID() })
    for (const task of [finished, open]) {
      await store.create(task, {
        kind: 'status-update',
        taskId: task.id,
        contextId: task.contextId,
        status: task.status,
        final: false,
      })
    }
    const timestamp = new Date().toISOString()
    await store.apply(finished.id, { kind: 'status', status: { state: 'canceled', timestamp } })
    await new Promise((resolve) => setTimeout(resolve, 60))
    expect(await store.get(finished.id)).toBeUndefined()
    expect(await events.read(finished.id)).toEqual([])
    expect(await store.get(open.id)).toBeDefined()
    expect(store.size).toBe(1)
    store.close()
  })
})

describe('a memory store with a maximum of tasks', () => {
  const timestamp = () => new Date().toISOString()
  const firstEvent = (task: Task) =>
    ({
      kind: 'status-update',
      taskId: task.id,
      contextId: task.contextId,
      status: task.status,
      final: false,
    }) as const

  function fullStore(maxTasks: number) {
    const events = new MemoryEventLog()
    const notices: FullStoreNotice[] = []
    const store = new MemoryTaskStore(events, {
      terminalTtlMs: 3_600_000,
      maxTasks,
      onFull: (notice) => notices.push(notice),
    })
    const create = async () => {
      const task = newTask({ id: randomUUID() })
      await store.create(task, firstEvent(task))
      return task
    }
    const end = (task: Task) =>
      store.apply(task.id, {
        kind: 'status',
        status: { state: 'canceled', timestamp: timestamp() },
      })
    return { store, events, notices, create, end }
  }

  it('makes room for a new task by forgetting the task that ended first, with its events', async () => {
    const { store, events, notices, create, end } = fullStore(3)
    const [a, b, c] = [await create(), await create(), await create()]
    await end(b)
    await end(a)
    const d = await create()
    // b ended first: it goes, a (ended later) and c (open) stay.
    expect(await store.get(b.id)).toBeUndefined()
    expect(await events.read(b.id)).toEqual([])
    for (const kept of [a, c, d]) expect(await store.get(kept.id)).toBeDefined()
    expect(store.size).toBe(3)
    await create()
    expect(await store.get(a.id)).toBeUndefined()
    expect(store.size).toBe(3)
    expect(store.fill()).toEqual({ held: 3, max: 3, forgottenEarly: 2 })
    // Told once, when it first forgot a task early.
    expect(notices).toEqual([{ outcome: 'forgot-ended', maxTasks: 3, forgotten: 1 }])
    store.close()
  })

  it('refuses a new task with 503 when no task it holds has ended, and writes nothing', async () => {
    const { store, events, notices, create } = fullStore(2)
    const open = [await create(), await create()]
    const refused = newTask({ id: randomUUID() })
    await expect(store.create(refused, firstEvent(refused))).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: 'The server holds as many tasks as it may, and none of them has ended; retry later',
    })
    expect(await store.get(refused.id)).toBeUndefined()
    expect(await events.read(refused.id)).toEqual([])
    expect(store.size).toBe(2)
    for (const task of open) expect(await store.get(task.id)).toBeDefined()
    expect(notices).toEqual([{ outcome: 'refused', maxTasks: 2, forgotten: 0 }])
    store.close()
  })

  it('answers a retried create of a task it holds even when full', async () => {
    const { store, create } = fullStore(1)
    const task = await create()
    const again = await store.create(task, firstEvent(task))
    expect(again).toMatchObject({ created: false, task: { id: task.id } })
    store.close()
  })
})
