/**
 * The hash chain: a record's `hash` is sha256 (hex) over the canonical JSON of the record
 * without `hash` (keys sorted at every level, no whitespace, undefined fields left out). The
 * Redis script cannot compute sha256 (Lua there has only sha1), so Node computes every hash.
 */
import { hash as digest } from 'node:crypto'
import { canonicalJson, jsonString as str } from '../domain/canonical-json.js'
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

/** `,"key":value` for a string member; nothing when it is undefined. */
const member = (key: string, value: string | undefined) =>
  value === undefined ? '' : `,"${key}":${str(value)}`

/**
 * What `canonicalJson({...entry, audit: 1, seq, prev})` gives, written out member by member in
 * sorted key order (audit, caller, details, event, outcome, prev, requestId, seq, skillId,
 * taskId, tenant, time): records are made for every task change, and sorting each one's keys
 * costs more than hashing it. test/audit/verify.test.ts holds the two equal.
 */
function canonicalRecord(entry: AuditEntry, seq: number, prev: string): string {
  return (
    `{"audit":1${member('caller', entry.caller)},"details":${canonicalJson(entry.details)}` +
    `,"event":${str(entry.event)},"outcome":${str(entry.outcome)},"prev":${str(prev)}` +
    `${member('requestId', entry.requestId)},"seq":${seq}${member('skillId', entry.skillId)}` +
    `${member('taskId', entry.taskId)}${member('tenant', entry.tenant)},"time":${str(entry.time)}}`
  )
}
