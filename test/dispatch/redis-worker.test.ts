/**
 * The worker's turns taken by its own dispatcher (adopt): the task the dispatcher has just
 * written is handed to the turn, unless the task was canceled meanwhile, and slots are held
 * from reserve to adopt. A real Redis queue; the runner records what each turn was given.
 */
import type { Redis } from 'ioredis'
import pino from 'pino'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { QueueWorker } from '../../src/dispatch/redis/worker.js'
import type { Task } from '../../src/domain/model.js'
import type { Runner } from '../../src/engine/runner.js'
import { MemoryEventLog } from '../../src/store/memory/event-log.js'
import { MemoryTaskStore } from '../../src/store/memory/task-store.js'
import { WorkQueue } from '../../src/store/redis/work-queue.js'
import { connectTestRedis, deleteKeysUnder, testPrefix } from '../helpers/redis.js'
import { newTask } from '../store/contract.js'

let redis: Redis
const prefixes: string[] = []
const workers: QueueWorker[] = []
beforeAll(() => {
  redis = connectTestRedis()
})
afterEach(async () => {
  for (const worker of workers.splice(0)) await worker.close(0)
  for (const prefix of prefixes.splice(0)) await deleteKeysUnder(redis, prefix)
})
afterAll(() => redis.quit())

/**
 * A worker (not started: no blocking read) whose runner records the task each turn got; its
 * turns end at once, or run until aborted with `holding`.
 */
async function workerWith(concurrency: number, { holding = false } = {}) {
  const prefix = testPrefix()
  prefixes.push(prefix)
  const queue = new WorkQueue(redis, prefix, 'api-and-worker')
  await queue.ensureGroup()
  const given: { taskId: string; known: Task | undefined }[] = []
  const runner: Pick<Runner, 'run' | 'abandon' | 'settle' | 'skillIds'> = {
    skillIds: ['echo'],
    run: async (taskId, turn, _origin, known) => {
      given.push({ taskId, known })
      if (holding) await turn.whenAborted()
      return { recorded: true, task: undefined }
    },
    abandon: () => Promise.reject(new Error('no turn is abandoned here')),
    settle: () => undefined,
  }
  const events = new MemoryEventLog()
  const worker = new QueueWorker({
    queue,
    connection: connectTestRedis(),
    redis,
    runner,
    store: new MemoryTaskStore(events),
    events,
    log: pino({ level: 'silent' }),
    concurrency,
    visibilityTimeoutMs: 30_000,
    maxAttempts: 3,
    onEnded: () => undefined,
  })
  workers.push(worker)
  /** What the dispatcher does: reserve, queue and take, adopt. */
  const dispatch = async (task: Task) => {
    const reserved = worker.reserve()
    const { taken } = await queue.enqueue(task.id, queue.consumer, undefined, reserved ? 1 : 0)
    if (reserved) worker.adopt(taken, task)
    return { reserved, taken }
  }
  return { worker, queue, given, dispatch }
}

describe('QueueWorker: turns its own dispatcher takes as it queues them', () => {
  it('runs the taken turn with the task as the dispatcher wrote it', async () => {
    const { given, dispatch } = await workerWith(2)
    const task = newTask()
    const { reserved, taken } = await dispatch(task)
    expect(reserved).toBe(true)
    expect(taken.map((turn) => turn.taskId)).toEqual([task.id])
    await expect.poll(() => given).toEqual([{ taskId: task.id, known: task }])
  })

  it('reads the task afresh when it was canceled before the turn was taken', async () => {
    const { worker, given, dispatch } = await workerWith(2)
    const task = newTask()
    // The cancel arrives (locally, or on the control channel) before the queue step answers.
    expect(worker.abort(task.id, 'canceled')).toBe(false)
    await dispatch(task)
    await expect.poll(() => given).toEqual([{ taskId: task.id, known: undefined }])
  })

  it('reserves no more slots than it has: the turn beyond them waits in the queue', async () => {
    const { given, queue, dispatch } = await workerWith(1, { holding: true })
    const sent = await Promise.all([dispatch(newTask()), dispatch(newTask())])
    expect(sent.map(({ reserved }) => reserved)).toEqual([true, false])
    expect(sent.map(({ taken }) => taken.length)).toEqual([1, 0])
    await expect.poll(() => given.length).toBe(1)
    // One turn runs (pending under this consumer), the other waits for a free worker.
    expect(await queue.depth()).toBe(2)
    expect(await queue.idle(0, 10)).toHaveLength(1)
  })
})
