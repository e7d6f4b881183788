/**
 * What a server's log says while Redis is unreachable, or while what answers at REDIS_URL is not
 * Redis: what happened, in plain words, and never ioredis' texts about its own internals. The
 * real app (ROLE all: API and worker) with its log kept, on a port nothing listens on or on an
 * HTTP server's.
 */
import { createServer } from 'node:http'
import type { Server } from 'node:http'
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { errSerializer } from '../../src/log-serializers.js'
import { testApp } from '../helpers/app.js'
import { freePort } from '../helpers/free-port.js'
import { keptLog } from '../helpers/log.js'
import type { LogLine } from '../helpers/log.js'
import { testPrefix } from '../helpers/redis.js'

const apps: FastifyInstance[] = []
const servers: Server[] = []
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close()
  for (const server of servers.splice(0)) server.close()
})

/** The app on `url`, with every line it logs at warn and above, written as the server's. */
async function serverOn(url: string): Promise<{ app: FastifyInstance; lines: LogLine[] }> {
  const { lines, logger } = keptLog('warn', { serializers: { err: errSerializer } })
  const app = await testApp(
    {
      REDIS_URL: url,
      REDIS_KEY_PREFIX: testPrefix(),
      // Fast health-check rounds, so that a test would see their warnings.
      REGISTRY_CHECK_INTERVAL_MS: '100',
    },
    { logger },
  )
  apps.push(app)
  return { app, lines }
}

/** An HTTP server on a free port: what a REDIS_URL with the wrong port may reach. */
async function httpServer(): Promise<string> {
  const port = await freePort()
  const server = createServer((_request, response) => response.end('hello'))
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  return `redis://127.0.0.1:${port}`
}

const IOREDIS_TEXT = /maxRetriesPerRequest|Reached the max retries|Please report this/
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('the log while Redis is unreachable', () => {
  it('says why a request was refused in plain words', async () => {
    const { app, lines } = await serverOn(`redis://127.0.0.1:${await freePort()}`)
    expect((await app.inject('/tasks/5d8a3c1e-0000-4000-8000-000000000000')).statusCode).toBe(503)

    // One line per refused request, with its cause and no stack: an outage refuses many.
    const refused = lines.find((line) => line.msg.startsWith('request refused'))
    expect(refused).toMatchObject({
      level: 40,
      msg: 'request refused: The task store is unavailable; try again shortly',
      cause: 'Redis is unreachable',
    })
    expect(refused).not.toHaveProperty('err')
    // Nor does any other line of the outage carry a stack: each says what happened.
    expect(lines.find((line) => line.msg === 'Redis is unreachable; reconnecting')).toMatchObject({
      err: {
        type: 'RedisUnavailableError',
        message: expect.stringMatching(/^Redis is unreachable/),
      },
    })
    expect(lines.filter((line) => JSON.stringify(line).includes('"stack"'))).toEqual([])
    expect(JSON.stringify(lines)).not.toMatch(IOREDIS_TEXT)
  })

  it('logs no failed agent health checks: no agent was checked', async () => {
    const { lines } = await serverOn(`redis://127.0.0.1:${await freePort()}`)
    await sleep(500)
    expect(lines.map((line) => line.msg)).not.toContain('agent health checks failed')
  })
})

describe('the log when what answers at REDIS_URL is not Redis', () => {
  it("says so on each of its connections, never in the Redis client library's words", async () => {
    const { app, lines } = await serverOn(await httpServer())
    await expect
      .poll(
        () =>
          lines.filter(
            (line) =>
              line.msg === 'what answers at REDIS_URL is not Redis; retrying (fix REDIS_URL)',
          ).length,
        { timeout: 5000 },
      )
      .toBe(3)
    expect((await app.inject('/readyz')).json()).toEqual({
      status: 'unavailable',
      unreachable: ['redis'],
    })
    expect(JSON.stringify(lines)).not.toMatch(IOREDIS_TEXT)
  })
})
