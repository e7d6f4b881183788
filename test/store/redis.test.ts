import type { Redis } from 'ioredis'
import { afterAll, beforeAll } from 'vitest'
import { createRedisStore } from '../../src/store/redis/index.js'
import { connectTestRedis, deleteKeysUnder, testPrefix } from '../helpers/redis.js'
import { storeContract } from './contract.js'

let redis: Redis
beforeAll(() => {
  redis = connectTestRedis()
})
afterAll(() => redis.quit())

storeContract('redis', async () => {
  const prefix = testPrefix()
  const store = createRedisStore({ redis, prefix, terminalTtlSeconds: 0 })
  return {
    tasks: store.tasks,
    events: store.events,
    cleanup: async () => {
      await store.close()
      await deleteKeysUnder(redis, prefix)
    },
  }
})
