/** The embedded ActiveTasks: leases in a map per caller, checked on admission. */
import type { ActiveTasks } from '../active-tasks.js'

export class MemoryActiveTasks implements ActiveTasks {
  /** caller → taskId → when its lease lapses (ms since the epoch). */
  readonly #leases = new Map<string, Map<string, number>>()

  admit(caller: string, taskId: string, limit: number, leaseMs: number): Promise<boolean> {
    const now = Date.now()
    let leases = this.#leases.get(caller)
    if (leases === undefined) {
      leases = new Map()
      this.#leases.set(caller, leases)
    }
    // Lapsed leases are looked for only when they would stand in the way.
    if (leases.size >= limit && !leases.has(taskId)) {
      for (const [id, lapsesAt] of leases) if (lapsesAt <= now) leases.delete(id)
      if (leases.size >= limit) return Promise.resolve(false)
    }
    leases.set(taskId, now + leaseMs)
    return Promise.resolve(true)
  }

  release(caller: string, taskId: string): Promise<void> {
    const leases = this.#leases.get(caller)
    if (leases?.delete(taskId) && leases.size === 0) this.#leases.delete(caller)
    return Promise.resolve()
  }
}
