/**
 * The Redis registry shared by two server processes (`node dist/server.js`): an agent
 * registered on one is listed by the other, one check at a time is made across both, both see
 * it go unhealthy, and a removal on one is a removal on both.
 */
import { describe, expect, it } from 'vitest'
import { startTestAgent, translateSkill } from '../registry/agents.js'
import { useCluster, waitFor } from './cluster.js'

const INTERVAL_MS = 300

interface Listed {
  agents: { id: string; name: string; health: string }[]
}

const list = async (url: string): Promise<Listed['agents']> =>
  ((await (await fetch(`${url}/registry/agents`)).json()) as Listed).agents

describe('the Redis agent registry across two processes', () => {
  const cluster = useCluster({
    REGISTRY_CHECK_INTERVAL_MS: String(INTERVAL_MS),
    REGISTRY_UNHEALTHY_AFTER: '1',
    REGISTRY_MAX_BACKOFF_MS: String(INTERVAL_MS),
    REGISTRY_CHECK_TIMEOUT_MS: '1000',
  })

  it('shares entries, checks each agent once per interval across both, and shares its health', async () => {
    const [a, b] = await Promise.all([cluster.start('a'), cluster.start('b')])
    const agent = await startTestAgent('Alpha', [translateSkill('Alpha')])
    try {
      const registered = await fetch(`${a.url}/registry/agents`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: agent.url }),
      })
      expect(registered.status).toBe(201)
      const { id } = (await registered.json()) as { id: string }
      expect(await list(b.url)).toMatchObject([{ id, name: 'Alpha', health: 'healthy' }])

      // Both processes tick; the claim and `nextCheckAt` keep it to one check per interval.
      const before = agent.cardReads()
      const windowMs = 3_000
      await new Promise((resolve) => setTimeout(resolve, windowMs))
      const checks = agent.cardReads() - before
      expect(checks).toBeGreaterThanOrEqual(windowMs / (INTERVAL_MS * 2))
      expect(checks).toBeLessThanOrEqual(windowMs / INTERVAL_MS + 1)

      await agent.stop()
      for (const server of [a, b]) {
        await waitFor(`${server.name} to see Alpha unhealthy`, async () =>
          (await list(server.url))[0]?.health === 'unhealthy' ? true : undefined,
        )
      }

      const removed = await fetch(`${b.url}/registry/agents/${id}`, { method: 'DELETE' })
      expect(removed.status).toBe(204)
      expect(await list(a.url)).toEqual([])
      expect(await cluster.redis().exists(`${cluster.prefix()}registry:{agents}`)).toBe(0)
    } finally {
      await agent.stop()
    }
  })
})
