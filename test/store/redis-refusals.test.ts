/**
 * A Redis that refuses what REDIS_URL asks for is no reason to answer 500, nor to write
 * anywhere else: wrong credentials, a database this Redis does not have, or no Redis at all.
 */
import { randomUUID } from 'node:crypto'
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { testApp } from '../helpers/app.js'
import { connectTestRedis, deleteKeysUnder, keysUnder, testPrefix } from '../helpers/redis.js'
import { hasRedisServer, PrivateRedis } from '../helpers/private-redis.js'

const send = (app: FastifyInstance) =>
  app.inject({
    method: 'POST',
    url: '/tasks/send',
    payload: {
      id: randomUUID(),
      message: { role: 'user', parts: [{ type: 'text', text: 'hi' }] },
      metadata: { skillId: 'echo' },
    },
  })

describe.runIf(hasRedisServer)('Redis refusing REDIS_URL', () => {
  let app: FastifyInstance | undefined
  let locked: PrivateRedis
  const shared = connectTestRedis()
  const prefix = testPrefix()
  beforeAll(async () => {
    locked = await PrivateRedis.start(['--requirepass', 'right-password'])
  })
  afterEach(async () => {
    await app?.close()
    app = undefined
  })
  afterAll(async () => {
    await deleteKeysUnder(shared, prefix)
    shared.disconnect()
    await locked.remove()
  })

  it('answers 503 while Redis refuses the password, not 500', async () => {
    const url = `redis://:wrong-password@127.0.0.1:${locked.port}`
    app = await testApp({ REDIS_URL: url, REDIS_KEY_PREFIX: prefix, BUNDLED_SKILLS: 'echo' })
    await sleep(500)
    const response = await send(app)
    expect(response.statusCode).toBe(503)
    expect(response.json().error).toMatchObject({ code: 'SERVICE_UNAVAILABLE' })
  })

  it('answers 503, not 500, when REDIS_URL points at a server that is not Redis', async () => {
    const web = createServer((_request, response) => response.end('<html>not redis</html>'))
    web.listen(0, '127.0.0.1')
    await once(web, 'listening')
    const { port } = web.address() as AddressInfo
    try {
      app = await testApp({
        REDIS_URL: `redis://127.0.0.1:${port}`,
        REDIS_KEY_PREFIX: prefix,
        BUNDLED_SKILLS: 'echo',
      })
      await sleep(500)
      const response = await send(app)
      expect(response.statusCode).toBe(503)
      expect(response.json().error).toMatchObject({ code: 'SERVICE_UNAVAILABLE' })
    } finally {
      web.closeAllConnections()
      web.close()
    }
  })

  it('writes nothing, to database 0 or elsewhere, when REDIS_URL names a database Redis lacks', async () => {
    // The shared Redis has 16 databases (0-15).
    app = await testApp({
      REDIS_URL: 'redis://127.0.0.1:6379/99',
      REDIS_KEY_PREFIX: prefix,
      BUNDLED_SKILLS: 'echo',
    })
    // Time for the refused SELECT, after which ioredis would carry on in database 0.
    await sleep(500)
    const response = await send(app)
    expect(response.statusCode).toBe(503)
    expect(await keysUnder(shared, prefix)).toEqual([])
  })
})
