/**
 * Where the registry keeps its entries: in this process (memory-store.ts) or in Redis
 * (redis-store.ts), shared by every replica. Both implementations satisfy the same contract
 * (test/registry/store-contract.ts).
 */
import type { AgentEntry } from './entry.js'

export interface RegistryStore {
  /** Every entry, in the order they were added (a replaced entry keeps its place). */
  list(): Promise<AgentEntry[]>
  get(agentId: string): Promise<AgentEntry | undefined>
  /** Adds the entry when no entry has its id; MUST NOT replace one. True when it was added. */
  add(entry: AgentEntry): Promise<boolean>
  /**
   * Replaces the entry only if the stored one still has revision `entry.revision - 1`; MUST NOT
   * bring back a removed entry. True when it was replaced.
   */
  replace(entry: AgentEntry): Promise<boolean>
  /** True when there was an entry to remove. */
  remove(agentId: string): Promise<boolean>
  /**
   * Takes the right to run the check of one agent that is due at `dueAt` (its `nextCheckAt`), so
   * that of several replicas only one runs it; false when another has it. The claim names the
   * due time, so it needs no release: the next check is due at another time. It lapses after
   * `ttlMs`, so a check whose result was never written is run again.
   */
  claimCheck(agentId: string, dueAt: string, ttlMs: number): Promise<boolean>
  close(): Promise<void>
}
