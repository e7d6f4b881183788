/** When the health checks run: each agent's when it is due, with no store reads in between. */
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
