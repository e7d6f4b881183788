/**
 * What a worker's log says when Redis goes away, and when it shuts down with turns still
 * running: what happened to Redis in plain words (never ioredis' own texts about its options),
 * and how many turns it handed back. A private redis-server, or a port nothing listens on.
 */
import type { Redis } from 'ioredis'
import { afterEach, describe, expect, it } from 'vitest'
import { ControlChannel } from '../../src/dispatch/redis/control-channel.js'
import { QueueWorker } from '../../src/dispatch/redis/worker.js'
import type { Runner } from '../../src/engine/runner.js'
import { MemoryEventLog } from '../../src/store/memory/event-log.js'
import { MemoryTaskStore } from '../../src/store/memory/task-store.js'
import { connectRedis } from '../../src/store/redis/connection.js'
import { WorkQueue } from '../../src/store/redis/work-queue.js'
import { newTask } from '../store/contract.js'
import { freePort } from '../helpers/free-port.js'
import { keptLog } from '../helpers/log.js'
import type { LogLine } from '../helpers/log.js'
import { PrivateRedis, hasRedisServer } from '../helpers/private-redis.js'
import { connectTestRedis, deleteKeysUnder, testPrefix } from '../helpers/redis.js'

let redis: PrivateRedis | undefined
const opened: Redis[] = []
const workers: QueueWorker[] = []
const prefixes: string[] = []
afterEach(async () => {
  for (const worker of workers.splice(0)) await worker.close(0)
  for (const connection of opened.splice(0)) connection.disconnect()
  await redis?.remove()
  redis = undefined
  if (prefixes.length > 0) {
    const shared = connectTestRedis()
    for (const prefix of prefixes.splice(0)) await deleteKeysUnder(shared, prefix)
    await shared.quit()
  }
})

/** A connection as a server opens it (connection.ts), its errors left to the test. */
function connect(url: string, name: string): Redis {
  const connection = connectRedis(url, name)
  connection.on('error', () => undefined)
  opened.push(connection)
  return connection
}

/** A started worker on `url` whose turns run until they are aborted; the lines it logs. */
async function holdingWorker(url: string, level = 'warn') {
  const prefix = testPrefix()
  prefixes.push(prefix)
  const commands = connect(url, 'commands')
  const queue = new WorkQueue(commands, prefix, 'worker')
  const runner: Pick<Runner, 'run' | 'abandon' | 'settle' | 'skillIds'> = {
    skillIds: ['echo'],
    run: async (_taskId, turn) => {
      await turn.whenAborted()
      return { recorded: false, storeUnavailable: false }
    },
    abandon: () => Promise.reject(new Error('no turn is abandoned here')),
    settle: () => undefined,
  }
  const { lines, logger } = keptLog(level)
  const events = new MemoryEventLog()
  const worker = new QueueWorker({
    queue,
    connection: connect(url, 'reader'),
    redis: commands,
    runner,
    store: new MemoryTaskStore(events),
    events,
    log: logger,
    concurrency: 4,
    visibilityTimeoutMs: 600,
    maxAttempts: 3,
    onEnded: () => undefined,
  })
  workers.push(worker)
  /** Queues a turn and has this worker take it at once, as its own dispatcher does. */
  const dispatch = async () => {
    expect(worker.reserve()).toBe(true)
    const { taken } = await queue.enqueue(newTask().id, queue.consumer, undefined, 1)
    worker.adopt(taken)
  }
  return { worker, queue, lines, dispatch }
}

/** The first line logged with `msg`, once there is one. */
const lineSaying = (lines: LogLine[], msg: string) =>
  expect
    .poll(() => lines.find((line) => line.msg === msg), { timeout: 5000 })
    .toBeDefined()
    .then(() => lines.find((line) => line.msg === msg)!)

const IOREDIS_TEXT = /maxRetriesPerRequest|Reached the max retries/

describe('QueueWorker: its log', () => {
  it('says Redis is unreachable when it cannot read the work queue', async () => {
    const { worker, lines } = await holdingWorker(`redis://127.0.0.1:${await freePort()}`)
    worker.start()

    const line = await lineSaying(lines, 'cannot read the work queue; retrying')
    expect((line.err as { message: string }).message).toMatch(/^Redis is unreachable/)
    expect(JSON.stringify(lines)).not.toMatch(IOREDIS_TEXT)
  })

  it.skipIf(!hasRedisServer)(
    'says Redis is unreachable when it cannot heartbeat its running turns',
    async () => {
      redis = await PrivateRedis.start()
      const { worker, queue, lines, dispatch } = await holdingWorker(redis.url)
      await queue.ensureGroup()
      worker.start()
      await dispatch()

      await redis.stop()
      const line = await lineSaying(lines, 'work queue upkeep failed')
      expect((line.err as { message: string }).message).toMatch(/^Redis is unreachable/)
      expect(JSON.stringify(lines)).not.toMatch(IOREDIS_TEXT)
      // Once per outage: its heartbeats (every 200 ms) and reclaim rounds go on failing.
      await new Promise((resolve) => setTimeout(resolve, 2000))
      expect(lines.filter((l) => l.msg === 'work queue upkeep failed')).toHaveLength(1)
    },
  )

  it('logs how many running turns it handed back to the queue when it shuts down', async () => {
    const { worker, queue, lines, dispatch } = await holdingWorker(
      process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      'info',
    )
    await queue.ensureGroup()
    worker.start()
    await dispatch()
    await dispatch()
    await expect.poll(() => worker.runningCount).toBe(2)

    await worker.close(0)
    expect(lines.filter((line) => line.level === 30)).toMatchObject([
      {
        msg: 'handed 2 running turns back to the queue: the next worker to read it runs them from the start',
        turns: 2,
      },
    ])
    // Handed back: waiting for any worker, none pending under this one.
    expect(await queue.depth()).toBe(2)
    expect(await queue.idle(0, 10)).toEqual([])
  })
})

describe('ControlChannel: its log', () => {
  it('says Redis is unreachable when it cannot subscribe yet', async () => {
    const { lines, logger } = keptLog()
    const subscriber = connect(`redis://127.0.0.1:${await freePort()}`, 'control')
    new ControlChannel(
      subscriber,
      { channels: { cancel: () => undefined }, onReconnected: () => undefined },
      logger,
    ).start()

    const line = await lineSaying(lines, 'cannot subscribe to the control channels yet')
    expect(line.err).toMatchObject({
      type: 'RedisUnavailableError',
      message: 'Redis is unreachable',
    })
  })
})
