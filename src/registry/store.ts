/**
 * Where the registry keeps its entries: in this process (memory-store.ts) or in Redis
 * (redis-store.ts), shared by every replica. Both implementations satisfy the same contract
 * (test/registry/store-contract.ts).
 */
import type { AgentEntry } from './entry.js'

export interface RegistryStore {
  /** Every entry, in no particular order. */
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
   * Takes the right to check one agent's health for `ttlMs` (so that of several replicas only
   * one checks it at a time); false when another holder has it.
   */
  claimCheck(agentId: string, ttlMs: number): Promise<boolean>
  close(): Promise<void>
}
