/**
 * The event log's pub/sub connection across a Redis outage: once Redis is back it subscribes to
 * the channels followed then, and to no other. A follower that stopped while Redis was down
 * leaves no subscription behind, and one that followed on through the outage is told of its
 * task's changes again. A private redis-server, stopped and started again.
 */
import type { Redis } from 'ioredis'
import { afterEach, describe, expect, it } from 'vitest'
import type { StoredEvent } from '../../src/domain/events.js'
import { connectRedis } from '../../src/store/redis/connection.js'
import { createRedisStore } from '../../src/store/redis/index.js'
import { PrivateRedis, hasRedisServer } from '../helpers/private-redis.js'
import { createdIn, testPrefix, to } from '../helpers/redis.js'
import type { TestRedisStore } from '../helpers/redis.js'

let redis: PrivateRedis | undefined
const opened: { close(): Promise<void> | void }[] = []
afterEach(async () => {
  for (const resource of opened.splice(0).reverse()) await resource.close()
  await redis?.remove()
})

function connect(url: string): Redis {
  const connection = connectRedis(url, 'test')
  connection.on('error', () => undefined)
  opened.push({ close: () => connection.disconnect() })
  return connection
}

/** Follows the task's log until `controller` aborts (a failed read ends it too). */
function follow(store: TestRedisStore, taskId: string, controller: AbortController) {
  const seen: StoredEvent[] = []
  const done = (async () => {
    for await (const event of store.events.follow(taskId, undefined, controller.signal)) {
      seen.push(event)
    }
  })().catch(() => undefined)
  return { seen, done }
}

const states = (events: StoredEvent[]) =>
  events.flatMap(({ event }) => (event.kind === 'status-update' ? [event.status.state] : []))

describe.skipIf(!hasRedisServer)('Redis event log: pub/sub across an outage', () => {
  it('keeps no subscription for a follower that left while Redis was down, and serves the next', async () => {
    redis = await PrivateRedis.start()
    const commands = connect(redis.url)
    const prefix = testPrefix()
    const store = {
      ...createRedisStore({ redis: commands, prefix, terminalTtlSeconds: 60 }),
      prefix,
    }
    opened.push(store)
    const task = await createdIn(store)
    const leaving = new AbortController()
    const leaver = follow(store, task.id, leaving)
    await expect.poll(() => leaver.seen.length).toBe(1)
    const channels = () => commands.pubsub('CHANNELS', `${prefix}*`) as Promise<string[]>
    expect(await channels()).toHaveLength(1)

    await redis.stop()
    // Its UNSUBSCRIBE cannot reach Redis now, and fails with the next reconnection attempt.
    leaving.abort()
    await leaver.done
    await new Promise((resolve) => setTimeout(resolve, 1500))
    await redis.start()

    // The feed's connection is back...
    const feedConnected = async () =>
      ((await commands.client('LIST')) as string).includes(` name=${prefix}events `)
    await expect.poll(feedConnected, { timeout: 5000 }).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 300))
    // ...and subscribed to nothing: nobody follows a task now.
    expect(await channels()).toEqual([])

    const following = new AbortController()
    const follower = follow(store, task.id, following)
    await expect.poll(() => follower.seen.length).toBe(1)
    expect(await channels()).toEqual([expect.stringContaining(task.id)])
    await store.tasks.apply(task.id, to('working'))
    await expect.poll(() => states(follower.seen)).toEqual(['submitted', 'working'])
    following.abort()
    await follower.done
    await expect.poll(channels).toEqual([])
  }, 30_000)
})
