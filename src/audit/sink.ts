/**
 * Where audit records go. A sink chains the entries it is given after its own head (the last
 * record it stored), so that the chain stays linear even when several processes share one
 * trail (the Redis sink). `append` either stores every entry, in order, or throws having
 * stored none of them (the trail then retries the same entries).
 */
import type { AuditEntry } from './record.js'

export interface AuditSink {
  readonly name: 'stdout' | 'file' | 'redis'
  /** Prepares the sink (reads where the chain stands); a failure here stops the start. */
  open(): Promise<void>
  append(entries: readonly AuditEntry[]): Promise<void>
  close(): Promise<void>
}
