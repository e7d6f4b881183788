/** The registry in this process's memory: the default without REDIS_URL. */
import type { AgentEntry } from './entry.js'
import type { RegistryStore } from './store.js'

export class MemoryRegistryStore implements RegistryStore {
  readonly #entries = new Map<string, AgentEntry>()
  readonly #claims = new Map<string, number>()

  list(): Promise<AgentEntry[]> {
    return Promise.resolve([...this.#entries.values()].map((entry) => structuredClone(entry)))
  }

  get(agentId: string): Promise<AgentEntry | undefined> {
    const entry = this.#entries.get(agentId)
    return Promise.resolve(entry && structuredClone(entry))
  }

  add(entry: AgentEntry): Promise<boolean> {
    if (this.#entries.has(entry.id)) return Promise.resolve(false)
    this.#entries.set(entry.id, structuredClone(entry))
    return Promise.resolve(true)
  }

  replace(entry: AgentEntry): Promise<boolean> {
    const current = this.#entries.get(entry.id)
    if (current?.revision !== entry.revision - 1) return Promise.resolve(false)
    this.#entries.set(entry.id, structuredClone(entry))
    return Promise.resolve(true)
  }

  remove(agentId: string): Promise<boolean> {
    return Promise.resolve(this.#entries.delete(agentId))
  }

  claimCheck(agentId: string, dueAt: string, ttlMs: number): Promise<boolean> {
    const now = Date.now()
    for (const [key, until] of this.#claims) if (until <= now) this.#claims.delete(key)
    const key = `${agentId}@${dueAt}`
    if (this.#claims.has(key)) return Promise.resolve(false)
    this.#claims.set(key, now + ttlMs)
    return Promise.resolve(true)
  }

  close(): Promise<void> {
    return Promise.resolve()
  }
}
