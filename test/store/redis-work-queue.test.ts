/** The work queue's own promises on a real Redis (the multiprocess tests run it end to end). */
import { randomUUID } from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Redis } from 'ioredis'
import { WorkQueue } from '../../src/store/redis/work-queue.js'
import { connectTestRedis, deleteKeysUnder, testPrefix } from '../helpers/redis.js'

let redis: Redis
const prefixes: string[] = []
beforeAll(() => {
  redis = connectTestRedis()
})
afterEach(async () => {
  for (const prefix of prefixes.splice(0)) await deleteKeysUnder(redis, prefix)
})
afterAll(() => redis.quit())

function queue(consumer = 'worker-1', prefix = testPrefix()): WorkQueue {
  if (!prefixes.includes(prefix)) prefixes.push(prefix)
  return new WorkQueue(redis, prefix, consumer)
}

describe('WorkQueue.ensure: a turn for a task unless one is queued or running', () => {
  it('queues a turn for a task that has none, and only one however often it is asked', async () => {
    const work = queue()
    const taskId = randomUUID()
    const first = await work.ensure(taskId, 'api-1', 'req-1')
    expect(first.added).toBe(true)
    expect(await work.ensure(taskId, 'api-2', 'req-2')).toEqual({ id: first.id, added: false })
    expect(await redis.xlen(work.keys.stream)).toBe(1)
    // Another task's turn is its own.
    expect((await work.ensure(randomUUID(), 'api-1')).added).toBe(true)
  })

  it('sees a turn queued the ordinary way, also while a worker runs it', async () => {
    const work = queue()
    await work.ensureGroup()
    const taskId = randomUUID()
    const { id } = await work.enqueue(taskId, 'api-1', 'req-1')
    const reader = connectTestRedis()
    try {
      const [taken] = await work.take(reader, 1, 100)
      expect(taken).toMatchObject({ id, taskId, origin: 'api-1', requestId: 'req-1' })
    } finally {
      reader.disconnect()
    }
    expect(await work.ensure(taskId, 'api-2')).toEqual({ id, added: false })
  })

  it('queues a new turn once the last one is done (acknowledged and deleted)', async () => {
    const work = queue()
    await work.ensureGroup()
    const taskId = randomUUID()
    const { id } = await work.ensure(taskId, 'api-1')
    const reader = connectTestRedis()
    try {
      await work.take(reader, 1, 100)
    } finally {
      reader.disconnect()
    }
    await work.ack([id])
    const again = await work.ensure(taskId, 'api-1')
    expect(again.added).toBe(true)
    expect(again.id).not.toBe(id)
  })

  it('finds the task past the first page of a long queue', async () => {
    const work = queue()
    for (let n = 0; n < 250; n++) await work.enqueue(randomUUID(), 'api-1')
    const taskId = randomUUID()
    const { id } = await work.enqueue(taskId, 'api-1')
    for (let n = 0; n < 10; n++) await work.enqueue(randomUUID(), 'api-1')
    expect(await work.ensure(taskId, 'api-1')).toEqual({ id, added: false })
  })
})

describe('WorkQueue.enqueue: a turn queued, and taken at once by a process with free slots', () => {
  it('only queues when told to take none: the turn waits for any worker', async () => {
    const work = queue()
    await work.ensureGroup()
    const taskId = randomUUID()
    const { id, taken } = await work.enqueue(taskId, 'api-1', 'req-1')
    expect(taken).toEqual([])
    const reader = connectTestRedis()
    try {
      expect(await work.take(reader, 1, 100)).toEqual([
        { id, taskId, origin: 'api-1', priorAttempts: 0, requestId: 'req-1' },
      ])
    } finally {
      reader.disconnect()
    }
  })

  it('hands the new turn to the queuing consumer, pending under it as a read would', async () => {
    const prefix = testPrefix()
    const work = queue('api-and-worker', prefix)
    await work.ensureGroup()
    const taskId = randomUUID()
    const { id, taken } = await work.enqueue(taskId, 'api-and-worker', 'req-1', 4)
    expect(taken).toEqual([
      { id, taskId, origin: 'api-and-worker', priorAttempts: 0, requestId: 'req-1' },
    ])
    const pending = await work.idle(0, 10)
    expect(pending).toEqual([
      { id, consumer: 'api-and-worker', idleMs: expect.any(Number), deliveries: 1 },
    ])
    // Nobody else gets it; once acknowledged it is gone.
    const reader = connectTestRedis()
    try {
      expect(await queue('other', prefix).take(reader, 1, 50)).toEqual([])
    } finally {
      reader.disconnect()
    }
    await work.ack([id])
    expect(await redis.xlen(work.keys.stream)).toBe(0)
  })

  it('takes the oldest waiting turns first: a backlog keeps its order', async () => {
    const work = queue('api-and-worker')
    await work.ensureGroup()
    const older = await work.enqueue(randomUUID(), 'api-1')
    const newer = await work.enqueue(randomUUID(), 'api-1')
    const own = await work.enqueue(randomUUID(), 'api-and-worker', undefined, 2)
    expect(own.taken.map((turn) => turn.id)).toEqual([older.id, newer.id])
    const next = await work.enqueue(randomUUID(), 'api-and-worker', undefined, 2)
    expect(next.taken.map((turn) => turn.id)).toEqual([own.id, next.id])
  })

  it('queues the turn when the group is missing, and takes none', async () => {
    const work = queue('api-and-worker')
    const { id, taken } = await work.enqueue(randomUUID(), 'api-and-worker', undefined, 1)
    expect(taken).toEqual([])
    expect(await redis.xlen(work.keys.stream)).toBe(1)
    expect(id).toMatch(/^\d+-\d+$/)
  })
})
