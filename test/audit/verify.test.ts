import { describe, expect, it } from 'vitest'
import { chain, recordHash } from '../../src/audit/hash.js'
import type { AuditEntry, AuditRecord } from '../../src/audit/record.js'
import { AuditEvent, EMPTY_HEAD } from '../../src/audit/record.js'
import { verifyChain } from '../../src/audit/verify.js'

const entry = (n: number): AuditEntry => ({
  time: new Date(1_700_000_000_000 + n).toISOString(),
  event: AuditEvent.stateChange,
  taskId: `task-${n}`,
  skillId: 'echo',
  outcome: 'working',
  details: { final: false },
})
const trail = (length: number): AuditRecord[] =>
  chain(
    Array.from({ length }, (_, n) => entry(n)),
    EMPTY_HEAD,
  ).map(({ record }) => record)

describe('verifying an audit chain', () => {
  it('accepts an intact chain and names its span', () => {
    const records = trail(5)
    expect(verifyChain(records)).toEqual({
      ok: true,
      count: 5,
      firstSeq: 1,
      last: { seq: 5, hash: records[4]!.hash },
    })
  })

  it('accepts a chain whose oldest records were capped away, and says where it starts', () => {
    expect(verifyChain(trail(6).slice(2))).toMatchObject({ ok: true, count: 4, firstSeq: 3 })
  })

  it('catches an edited record whose hash was left alone', () => {
    const records = trail(5)
    records[2] = { ...records[2]!, outcome: 'completed' } as AuditRecord
    expect(verifyChain(records)).toMatchObject({ ok: false, index: 2, seq: 3, reason: 'edited' })
  })

  it('catches an edited record that was rehashed, at that record', () => {
    const records = trail(5)
    const edited = { ...records[2]!, caller: 'mallory' } as AuditRecord
    records[2] = { ...edited, hash: recordHash(edited) }
    expect(verifyChain(records)).toMatchObject({ ok: false, index: 2, seq: 3, reason: 'edited' })
  })

  it('catches a deleted record', () => {
    const records = trail(5)
    records.splice(2, 1)
    const verdict = verifyChain(records)
    expect(verdict).toMatchObject({ ok: false, index: 2, seq: 4, reason: 'missing' })
    expect(verdict.ok || verdict.message).toBe('record seq 3 is missing (deleted)')
  })

  it('catches a reordered pair', () => {
    const records = trail(5)
    ;[records[1], records[2]] = [records[2]!, records[1]!]
    expect(verifyChain(records)).toMatchObject({ ok: false, index: 1, seq: 3, reason: 'reordered' })
  })

  it('catches a line that is not a record', () => {
    const records: unknown[] = trail(3)
    records.splice(1, 0, '{"audit":1,"seq":')
    expect(verifyChain(records)).toMatchObject({ ok: false, index: 1, reason: 'malformed' })
  })

  it('catches records deleted from the end when the head is known', () => {
    const records = trail(5)
    const head = { seq: 5, hash: records[4]!.hash }
    expect(verifyChain(records, { head })).toMatchObject({ ok: true })
    expect(verifyChain(records.slice(0, 3), { head })).toMatchObject({
      ok: false,
      index: 3,
      seq: 5,
      reason: 'missing',
    })
  })

  it('rejects a record with a field the schema does not know (no smuggled tokens)', () => {
    const [first] = trail(1)
    const smuggled = { ...first!, authorization: 'Bearer x' }
    expect(verifyChain([{ ...smuggled, hash: recordHash(smuggled as never) }])).toMatchObject({
      ok: false,
      reason: 'malformed',
    })
  })
})
