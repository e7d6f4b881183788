/**
 * The hash chain: a record's `hash` is sha256 (hex) over the canonical JSON of the record
 * without `hash` (keys sorted at every level, no whitespace, undefined fields left out). The
 * Redis script cannot compute sha256 (Lua there has only sha1), so Node computes every hash.
 */
import { createHash } from 'node:crypto'
import type { AuditEntry, AuditRecord, ChainHead } from './record.js'

/** JSON with object keys sorted, so equal records always serialize, and hash, alike. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`
  const object = value as Record<string, unknown>
  const fields: string[] = []
  for (const key of Object.keys(object).sort()) {
    if (object[key] !== undefined)
      fields.push(`${JSON.stringify(key)}:${canonicalJson(object[key])}`)
  }
  return `{${fields.join(',')}}`
}

/** The hash a record should carry: over everything but its own `hash`. */
export function recordHash(record: Omit<AuditRecord, 'hash'> & { hash?: string }): string {
  const { hash: _ignored, ...hashed } = record
  return createHash('sha256').update(canonicalJson(hashed)).digest('hex')
}

/** Puts `entries` on the chain after `head`, in order. */
export function chain(entries: readonly AuditEntry[], head: ChainHead): AuditRecord[] {
  let { seq, hash } = head
  return entries.map((entry) => {
    seq += 1
    const unhashed = { ...entry, audit: 1 as const, seq, prev: hash }
    hash = recordHash(unhashed)
    return { ...unhashed, hash }
  })
}
