/**
 * `a2a stream` while the agent's task store (Redis) restarts: the agent ends the open stream
 * with an in-stream "unavailable, retry in 1 s" error, and the command resumes and follows the
 * task to its end; when the store stays down, it gives up as "busy: try again later" (exit 75).
 * A private redis-server is stopped and started again; the shared one on 6379 is never touched.
 */
import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { token } from '../helpers/auth.js'
import { PrivateRedis, hasRedisServer } from '../helpers/private-redis.js'
import { startAgent } from '../client/agents.js'
import { ensureBuilt, killRunning, startCli, withoutIds } from './run-cli.js'

const env = { A2A_TOKEN: token() }
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe.skipIf(!hasRedisServer)('a2a stream across a restart of the task store', () => {
  let redis: PrivateRedis
  let app: FastifyInstance
  let url: string

  beforeAll(async () => {
    ensureBuilt()
    redis = await PrivateRedis.start()
    ;({ app, url } = await startAgent({ REDIS_URL: redis.url }))
  }, 200_000)
  afterEach(() => killRunning())
  afterAll(async () => {
    await app?.close()
    await redis?.remove()
  })

  /** Starts `a2a stream` on a task that naps for `ms`; resolves once the task is shown. */
  async function streamNap(dialect: string, ms: number) {
    const args = ['stream', url, '--dialect', dialect, '--skill', 'nap', '--data']
    const stream = startCli([...args, JSON.stringify({ ms }), 'go'], { env })
    for (let i = 0; i < 200 && !stream.stdout().includes('[working]'); i++) await pause(50)
    expect(stream.stdout()).toContain('[working]')
    return stream
  }

  it.each(['jsonrpc-1.0', 'jsonrpc-0.3'])(
    '%s: resumes once the store is back and shows each state once, ending [completed]',
    async (dialect) => {
      const stream = await streamNap(dialect, 4_000)
      await redis.stop()
      await pause(2_500)
      await redis.start()
      const run = await stream.done
      expect(run).toMatchObject({ code: 0, stderr: '' })
      expect(withoutIds(run.stdout)).toBe(
        ['task <id>', '[submitted]', '[working]', '[completed] rested', ''].join('\n'),
      )
    },
    30_000,
  )

  it('jsonrpc-0.3: gives up after its reconnects while the store stays down, as busy: exit 75', async () => {
    const stream = await streamNap('jsonrpc-0.3', 2_000)
    await redis.stop()
    const run = await stream.done.finally(() => redis.start())
    expect(run.code).toBe(75)
    expect(withoutIds(run.stderr)).toBe(
      'a2a stream: The stream of task <id> dropped and 5 reconnects failed: ' +
        'The task store is unavailable; try again shortly\n',
    )
  }, 60_000)
})
