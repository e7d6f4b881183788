/**
 * The control channel across a Redis outage: its connection has ioredis's own resubscription
 * off, so it subscribes again itself once Redis is back, hears what is published from then on,
 * and tells its owners to look again at what they may have missed. A private redis-server,
 * stopped and started again.
 */
import type { Redis } from 'ioredis'
import pino from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { ControlChannel } from '../../src/dispatch/redis/control-channel.js'
import { connectRedis } from '../../src/store/redis/connection.js'
import { PrivateRedis, hasRedisServer } from '../helpers/private-redis.js'

let redis: PrivateRedis | undefined
const opened: Redis[] = []
afterEach(async () => {
  for (const connection of opened.splice(0)) connection.disconnect()
  await redis?.remove()
})

function connect(url: string, name: string, options = {}): Redis {
  const connection = connectRedis(url, name, options)
  connection.on('error', () => undefined)
  opened.push(connection)
  return connection
}

describe.skipIf(!hasRedisServer)('ControlChannel: across a Redis outage', () => {
  it('subscribes again once Redis is back, then says so, and hears what is published after', async () => {
    redis = await PrivateRedis.start()
    const publisher = connect(redis.url, 'publisher')
    const subscriber = connect(redis.url, 'control', { autoResubscribe: false })
    const heard: string[] = []
    let reconnections = 0
    new ControlChannel(
      subscriber,
      {
        channels: { cancel: (taskId) => heard.push(taskId) },
        onReconnected: () => (reconnections += 1),
      },
      pino({ level: 'silent' }),
    ).start()
    await expect.poll(() => publisher.publish('cancel', 'before')).toBe(1)
    await expect.poll(() => heard).toEqual(['before'])

    await redis.stop()
    await new Promise((resolve) => setTimeout(resolve, 500))
    await redis.start()

    await expect.poll(() => reconnections, { timeout: 5000 }).toBe(1)
    // Subscribed by the time it says it is back: the first publish after reaches it.
    expect(await publisher.publish('cancel', 'after')).toBe(1)
    await expect.poll(() => heard).toEqual(['before', 'after'])
  }, 20_000)
})
