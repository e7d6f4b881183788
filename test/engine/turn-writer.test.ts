import { describe, expect, it, vi } from 'vitest'
import type { TaskChange } from '../../src/domain/events.js'
import { textPart } from '../../src/domain/parts.js'
import { TurnWriter, WRITE_AHEAD } from '../../src/engine/turn-writer.js'
import { MemoryEventLog } from '../../src/store/memory/event-log.js'
import { MemoryTaskStore } from '../../src/store/memory/task-store.js'
import { newTask } from '../store/contract.js'

async function writerOnNewTask() {
  const events = new MemoryEventLog()
  const store = new MemoryTaskStore(events)
  const task = newTask()
  await store.create(task, {
    kind: 'status-update',
    taskId: task.id,
    contextId: task.contextId,
    status: task.status,
    final: false,
  })
  const applyAll = vi.spyOn(store, 'applyAll')
  return { store, events, task, applyAll, writer: new TurnWriter(store, task.id) }
}

const status = (state: 'working' | 'completed' | 'canceled'): TaskChange => ({
  kind: 'status',
  status: { state, timestamp: new Date().toISOString() },
})
const artifact = (n: number): TaskChange => ({
  kind: 'artifact',
  artifact: { artifactId: `a${n}`, parts: [textPart(`chunk ${n}`)] },
  append: false,
  lastChunk: true,
})

describe('TurnWriter', () => {
  it('writes what a turn queues before it waits as one store call, in order', async () => {
    const { writer, applyAll, events, task } = await writerOnNewTask()
    await writer.report(status('working'))
    await writer.report(artifact(1))
    const final = await writer.write(status('completed'))
    expect(applyAll).toHaveBeenCalledTimes(1)
    expect(final?.status.state).toBe('completed')
    expect(final?.artifacts.map((a) => a.artifactId)).toEqual(['a1'])
    const log = await events.read(task.id)
    expect(log.map(({ event }) => event.kind)).toEqual([
      'status-update',
      'status-update',
      'artifact-update',
      'status-update',
    ])
  })

  it('makes a skill that reports in a tight loop wait for the store past WRITE_AHEAD changes', async () => {
    const { writer, applyAll, store, task } = await writerOnNewTask()
    await writer.report(status('working'))
    let accepted = 0
    for (let n = 0; n < WRITE_AHEAD * 3; n++) {
      await writer.report(artifact(n))
      accepted++
      // Never more than WRITE_AHEAD changes wait unwritten.
      const stored = (await store.get(task.id))!.artifacts.length
      expect(accepted - stored).toBeLessThanOrEqual(WRITE_AHEAD)
    }
    await writer.flush()
    expect((await store.get(task.id))!.artifacts).toHaveLength(WRITE_AHEAD * 3)
    expect(applyAll.mock.calls.length).toBeGreaterThan(1)
  })

  it('drops a change the task state refuses and writes the rest', async () => {
    const { writer, store, task } = await writerOnNewTask()
    await store.apply(task.id, status('canceled'))
    await writer.report(status('working'))
    await writer.report(artifact(1))
    const final = await writer.write(status('completed'))
    expect(final?.status.state).toBe('canceled')
    expect(final?.artifacts).toEqual([])
  })

  it('rejects every call after a store failure, so the turn ends unrecorded', async () => {
    const { writer, applyAll } = await writerOnNewTask()
    applyAll.mockRejectedValueOnce(new Error('store down'))
    await writer.report(status('working'))
    await expect(writer.flush()).rejects.toThrow('store down')
    await expect(writer.report(artifact(1))).rejects.toThrow('store down')
    await expect(writer.write(status('completed'))).rejects.toThrow('store down')
    expect(applyAll).toHaveBeenCalledTimes(1)
  })
})
