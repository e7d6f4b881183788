/**
 * The hash chain: a record's `hash` is sha256 (hex) over the canonical JSON of the record
 * without `hash` (keys sorted at every level, no whitespace, undefined fields left out). The
 * Redis script cannot compute sha256 (Lua there has only sha1), so Node computes every hash.
 */
import { hash as digest } from 'node:crypto'
import { canonicalJson } from '../domain/canonical-json.js'
import type { AuditEntry, AuditRecord, ChainHead } from './record.js'

/** The hash a record should carry: over everything but its own `hash`. */
export function recordHash(record: Omit<AuditRecord, 'hash'> & { hash?: string }): string {
  const { hash: _ignored, ...hashed } = record
  return digest('sha256', canonicalJson(hashed), 'hex')
}

/** A record and the line it is stored as: its canonical JSON with `hash` added. */
export interface ChainedRecord {
  record: AuditRecord
  /** One line of JSON, no newline; starts with `{"audit":1,` (the first key in sorted order). */
  line: string
}

/** Puts `entries` on the chain after `head`, in order. */
export function chain(entries: readonly AuditEntry[], head: ChainHead): ChainedRecord[] {
  let { seq, hash } = head
  return entries.map((entry) => {
    seq += 1
    const unhashed = { ...entry, audit: 1 as const, seq, prev: hash }
    const canonical = canonicalJson(unhashed)
    hash = digest('sha256', canonical, 'hex')
    return { record: { ...unhashed, hash }, line: `${canonical.slice(0, -1)},"hash":"${hash}"}` }
  })
}
