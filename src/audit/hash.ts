/**
 * The hash chain: a record's `hash` is sha256 (hex) over the canonical JSON of the record
 * without `hash` (keys sorted at every level, no whitespace, undefined fields left out). The
 * Redis script cannot compute sha256 (Lua there has only sha1), so Node computes every hash.
 */
import { hash as digest } from 'node:crypto'
import { canonicalJson, isSorted } from '../domain/canonical-json.js'
import type { AuditEntry, AuditRecord, ChainHead } from './record.js'

/** The hash a record should carry: over everything but its own `hash`. */
export function recordHash(record: Omit<AuditRecord, 'hash'> & { hash?: string }): string {
  const { hash: _ignored, ...hashed } = record
  return digest('sha256', canonicalJson(hashed), 'hex')
}

/** A record's place on the chain and the line it is stored as. */
export interface ChainedRecord extends ChainHead {
  /** Its canonical JSON with `hash` added: one line, no newline; starts with `{"audit":1,`. */
  line: string
}

/** Puts `entries` on the chain after `head`, in order. */
export function chain(entries: readonly AuditEntry[], head: ChainHead): ChainedRecord[] {
  let { seq, hash } = head
  return entries.map((entry) => {
    seq += 1
    const canonical = canonicalRecord(entry, seq, hash)
    hash = digest('sha256', canonical, 'hex')
    return { seq, hash, line: `${canonical.slice(0, -1)},"hash":"${hash}"}` }
  })
}

/**
 * What `canonicalJson({...entry, audit: 1, seq, prev})` gives. JSON.stringify writes members in
 * the order an object was built and leaves out undefined ones, so a record built in sorted key
 * order (audit, caller, details, event, outcome, prev, requestId, seq, skillId, taskId, tenant,
 * time), whose details are flat and in sorted order too, stringifies to its canonical JSON, in
 * native code: records are made for every task change. Any other details take the general path.
 * test/audit/verify.test.ts holds the two equal.
 */
function canonicalRecord(entry: AuditEntry, seq: number, prev: string): string {
  const details = sortedFlat(entry.details)
  const record = {
    audit: 1,
    caller: entry.caller,
    details: details ?? entry.details,
    event: entry.event,
    outcome: entry.outcome,
    prev,
    requestId: entry.requestId,
    seq,
    skillId: entry.skillId,
    taskId: entry.taskId,
    tenant: entry.tenant,
    time: entry.time,
  }
  return details === undefined ? canonicalJson(record) : JSON.stringify(record)
}

/**
 * `details` with its keys in sorted order (itself when they already are), if every value is a
 * primitive or an array of primitives; undefined otherwise.
 */
function sortedFlat(details: object): object | undefined {
  const values = details as Record<string, unknown>
  const keys = Object.keys(values)
  if (!keys.every((key) => isFlat(values[key]))) return undefined
  if (isSorted(keys)) return details
  const copy: Record<string, unknown> = {}
  for (const key of keys.sort()) copy[key] = values[key]
  return copy
}

const isPrimitive = (value: unknown): boolean => value === null || typeof value !== 'object'

const isFlat = (value: unknown): boolean =>
  isPrimitive(value) || (Array.isArray(value) && value.every(isPrimitive))
