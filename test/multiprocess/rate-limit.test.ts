/** Rate limits across processes (issue 4 §4, §8): two servers on one Redis spend one budget. */
import { authHeaders } from '../helpers/auth.js'
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { keysUnder } from '../helpers/redis.js'
import { useCluster, waitFor } from './cluster.js'

const WINDOW_MS = 2000

describe('rate limits on Redis, across two server processes', () => {
  const cluster = useCluster({ RATE_LIMIT_MAX: '4', RATE_LIMIT_WINDOW_MS: String(WINDOW_MS) })

  const getTask = (url: string) => fetch(`${url}/tasks/${randomUUID()}`, { headers: authHeaders() })

  it('shares one budget between the processes, refuses the rest with 429, and resets after the window', async () => {
    const [a, b] = await Promise.all([cluster.start('a'), cluster.start('b')])
    const spent = [
      await getTask(a.url),
      await getTask(b.url),
      await getTask(a.url),
      await getTask(b.url),
    ]
    expect(spent.map((response) => response.status)).toEqual([404, 404, 404, 404])
    expect(spent.map((response) => response.headers.get('x-ratelimit-remaining'))).toEqual([
      '3',
      '2',
      '1',
      '0',
    ])

    for (const server of [a, b]) {
      const refused = await getTask(server.url)
      expect(refused.status).toBe(429)
      expect(refused.headers.get('x-ratelimit-limit')).toBe('4')
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0')
      const retryAfter = Number(refused.headers.get('retry-after'))
      expect(retryAfter).toBeGreaterThanOrEqual(1)
      expect(retryAfter).toBeLessThanOrEqual(WINDOW_MS / 1000)
      expect(refused.headers.get('x-ratelimit-reset')).toBe(String(retryAfter))
      expect(await refused.json()).toEqual({
        error: {
          code: 'RATE_LIMITED',
          message: `Rate limit exceeded: at most 4 requests per window; retry in ${retryAfter} s`,
          limit: 4,
          retryAfterSeconds: retryAfter,
          requestId: refused.headers.get('x-request-id'),
        },
      })
    }
    // The counter lives in Redis under the deployment's prefix.
    expect(await keysUnder(cluster.redis(), `${cluster.prefix()}rate-limit:`)).toEqual([
      `${cluster.prefix()}rate-limit:caller:test-user`,
    ])

    // Once the window has passed, both processes let requests through again.
    const again = await waitFor(
      'the window to reset',
      async () => {
        const response = await getTask(b.url)
        return response.status === 429 ? undefined : response
      },
      WINDOW_MS * 3,
      100,
    )
    expect(again.status).toBe(404)
    expect(again.headers.get('x-ratelimit-remaining')).toBe('3')
    expect((await getTask(a.url)).status).toBe(404)
  })
})
