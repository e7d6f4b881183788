/** When the health checks run: each agent's when it is due, with no store reads in between. */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { expect, it } from 'vitest'
import { MemoryRegistryStore } from '../../src/registry/memory-store.js'
import { AgentRegistry } from '../../src/registry/registry.js'
import { countSkill, startTestAgent } from './agents.js'

/** The memory store, counting how often the checks read the whole registry. */
class CountingStore extends MemoryRegistryStore {
  lists = 0
  override list() {
    this.lists += 1
    return super.list()
  }
}

it('checks an agent each interval, and reads the registry only when a check is due', async () => {
  const agent = await startTestAgent('Gamma', [countSkill])
  const store = new CountingStore()
  const registry = new AgentRegistry({ store, checkIntervalMs: 400 })
  try {
    const { entry } = await registry.register(agent.url)
    registry.start()
    await sleep(1_300)
    // Due 400, 800 and 1200 ms after it was registered (the last one may still be under way).
    expect((await registry.get(entry.id)).revision).toBeGreaterThanOrEqual(3)
    // The first look, then once per due check; a timer ticking every quarter interval (100 ms)
    // would have read it 13 times.
    expect(store.lists).toBeLessThanOrEqual(5)
  } finally {
    await registry.close()
    await agent.stop()
  }
})

it('keeps an agent healthy that refuses a card read for its rate limit (429): it answered', async () => {
  const agent = await startTestAgent('Gamma', [countSkill])
  // In front of the agent: the first card read (the registration's) passes, then every one is
  // refused as over the agent's discovery rate limit.
  let reads = 0
  const front = createServer((request, response) => {
    reads += 1
    if (reads === 1) {
      void fetch(`${agent.url}${request.url}`, { headers: { 'a2a-version': '1.0' } }).then(
        async (reply) => {
          response.writeHead(reply.status, { 'content-type': 'application/json' })
          response.end(await reply.text())
        },
      )
      return
    }
    response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' })
    response.end(JSON.stringify({ error: { code: 'RATE_LIMITED', message: 'Too many requests' } }))
  })
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(front.address() as AddressInfo).port}`
  const registry = new AgentRegistry({ checkIntervalMs: 100, unhealthyAfter: 2 })
  try {
    const { entry } = await registry.register(url)
    registry.start()
    await sleep(700)
    expect(reads).toBeGreaterThanOrEqual(4)
    expect(await registry.get(entry.id)).toMatchObject({
      health: 'healthy',
      consecutiveFailures: 0,
    })
  } finally {
    await registry.close()
    front.close()
    await agent.stop()
  }
})
