import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { MemoryEventLog } from '../../src/store/memory/event-log.js'
import { Retention } from '../../src/store/memory/retention.js'
import { MemoryTaskStore } from '../../src/store/memory/task-store.js'
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
