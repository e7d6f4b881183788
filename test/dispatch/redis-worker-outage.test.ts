/**
 * A Redis outage as the work queue's workers see it: once Redis is back, the entry of every
 * running turn looks idle (its heartbeats failed meanwhile), though its worker lives. A worker
 * that reconnects waits one visibility timeout before it reclaims, so a turn whose worker
 * heartbeats within that time stays with it, and no attempt is used. A private redis-server,
 * stopped and started again; the turn's worker (A) is played by the test.
 */
import type { Redis } from 'ioredis'
import pino from 'pino'
import type { Logger } from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { QueueWorker } from '../../src/dispatch/redis/worker.js'
import type { Runner } from '../../src/engine/runner.js'
import { MemoryEventLog } from '../../src/store/memory/event-log.js'
import { MemoryTaskStore } from '../../src/store/memory/task-store.js'
import { connectRedis } from '../../src/store/redis/connection.js'
import { WorkQueue } from '../../src/store/redis/work-queue.js'
import { waitFor } from '../multiprocess/cluster.js'
import { PrivateRedis, hasRedisServer } from '../helpers/private-redis.js'

const VISIBILITY_TIMEOUT_MS = 1000
const prefix = 'test:a2a:outage:'
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

let redis: PrivateRedis | undefined
const opened: Redis[] = []
let worker: QueueWorker | undefined
afterEach(async () => {
  await worker?.close(0)
  for (const connection of opened.splice(0)) connection.disconnect()
  await redis?.remove()
})

function connect(url: string, name: string): Redis {
  const connection = connectRedis(url, name)
  connection.on('error', () => undefined)
  opened.push(connection)
  return connection
}

/** Worker B: reads the queue as `queue`'s consumer, on a connection of its own. */
function startWorkerB(
  url: string,
  queue: WorkQueue,
  commands: Redis,
  runner: Pick<Runner, 'run' | 'abandon' | 'settle' | 'skillIds'>,
  { maxAttempts, log = pino({ level: 'silent' }) }: { maxAttempts: number; log?: Logger },
): void {
  const events = new MemoryEventLog()
  worker = new QueueWorker({
    queue,
    connection: connect(url, 'reader B'),
    redis: commands,
    runner,
    store: new MemoryTaskStore(events),
    events,
    log,
    concurrency: 1,
    visibilityTimeoutMs: VISIBILITY_TIMEOUT_MS,
    maxAttempts,
    onEnded: () => undefined,
  })
  worker.start()
}

describe.skipIf(!hasRedisServer)('QueueWorker: reclaiming after a Redis outage', () => {
  it("leaves a living worker's turn to it while that worker reconnects", async () => {
    redis = await PrivateRedis.start()
    const commands = connect(redis.url, 'commands')
    const queue = new WorkQueue(commands, prefix, 'worker B')
    await queue.ensureGroup()
    // Worker A takes the turn.
    const workerA = new WorkQueue(commands, prefix, 'worker A')
    await queue.enqueue('task-1', 'api')
    const [turn] = await workerA.take(connect(redis.url, 'reader A'), 1, 100)
    expect(turn).toBeDefined()

    // Worker B would claim it, and fail its task at once (one attempt allowed).
    const calls: string[] = []
    const runner: Pick<Runner, 'run' | 'abandon' | 'settle' | 'skillIds'> = {
      skillIds: ['echo'],
      run: async (taskId) => {
        calls.push(`run ${taskId}`)
        return { recorded: true, task: undefined }
      },
      abandon: (taskId) => {
        calls.push(`abandon ${taskId}`)
        return Promise.reject(new Error('not stored'))
      },
      settle: (taskId) => void calls.push(`settle ${taskId}`),
    }
    startWorkerB(redis.url, queue, commands, runner, { maxAttempts: 1 })

    // Longer than the visibility timeout: the entry is past it when Redis is back.
    await redis.stop()
    await sleep(1500)
    await redis.start()
    await waitFor('worker B to reconnect', () => (commands.status === 'ready' ? true : undefined))
    // B's reclaim rounds (every half visibility timeout) run meanwhile; A heartbeats late.
    await sleep(700)

    expect(await workerA.heartbeat([turn!.id])).toEqual(new Set([turn!.id]))
    expect(await queue.idle(0, 10)).toMatchObject([{ consumer: 'worker A', deliveries: 1 }])
    expect(calls).toEqual([])
  })

  it('says so, without an error, when Redis comes back without the queue (no persistence)', async () => {
    redis = await PrivateRedis.start(['--appendonly', 'no'])
    const commands = connect(redis.url, 'commands')
    const queue = new WorkQueue(commands, prefix, 'worker B')
    await queue.ensureGroup()
    await queue.enqueue('task-1', 'api')
    const lines: { level: number; msg: string }[] = []
    const log = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line)) })
    let runs = 0
    const runner: Pick<Runner, 'run' | 'abandon' | 'settle' | 'skillIds'> = {
      skillIds: ['echo'],
      // The turn's run: Redis restarts under it, empty, which stops the turn as an outage would.
      run: async () => {
        runs += 1
        await redis!.stop()
        await redis!.start()
        return { recorded: false, storeUnavailable: true }
      },
      abandon: () => Promise.reject(new Error('not expected')),
      settle: () => undefined,
    }
    startWorkerB(redis.url, queue, commands, runner, { maxAttempts: 3, log })
    const lost = await waitFor('the lost turn to be noticed', () =>
      lines.find((line) => line.msg.startsWith('this turn is no longer in the queue')),
    )
    expect(lost).toMatchObject({
      level: 40,
      msg: "this turn is no longer in the queue as this worker's: another worker took it over, or Redis lost the queue (a restart without its data); it stops here",
    })
    expect(lines.filter((line) => line.level >= 50)).toEqual([])
    expect(runs).toBe(1)
  })
})
