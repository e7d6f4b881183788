import { describe, expect, it } from 'vitest'
import type { ChainedRecord } from '../../src/audit/hash.js'
import { chain, recordHash } from '../../src/audit/hash.js'
import type { AuditEntry } from '../../src/audit/record.js'
import { AuditEvent, AuditRecord, EMPTY_HEAD } from '../../src/audit/record.js'
import { verifyChain } from '../../src/audit/verify.js'
import { canonicalJson } from '../../src/domain/canonical-json.js'

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
  ).map(({ line }) => JSON.parse(line) as AuditRecord)

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

  it('accepts a chain whose oldest records its cap explains, and says where it starts', () => {
    const cap = { maxLength: 4, length: 4 }
    expect(verifyChain(trail(6).slice(2), { cap })).toMatchObject({
      ok: true,
      count: 4,
      firstSeq: 3,
      cap: 4,
    })
  })

  it('catches a chain whose oldest records are gone from a stream shorter than its cap', () => {
    const cap = { maxLength: 5, length: 4 }
    const verdict = verifyChain(trail(6).slice(2), { cap })
    expect(verdict).toMatchObject({ ok: false, index: 0, seq: 3, reason: 'missing' })
    expect(verdict.ok || verdict.message).toBe(
      'the trail starts at seq 3: records seq 1-2 are missing, and the cap does not explain it: ' +
        'the stream holds 4 records, and a cap of 5 never trims it below 5',
    )
  })

  it('catches a chain without its oldest records when no cap could have dropped them', () => {
    const verdict = verifyChain(trail(3).slice(1))
    expect(verdict).toMatchObject({ ok: false, index: 0, seq: 2, reason: 'missing' })
    expect(verdict.ok || verdict.message).toBe(
      'the trail starts at seq 2: record seq 1 is missing, and no cap drops records from it',
    )
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
    for (const line of ['not a record', { audit: 1, seq: 2 }]) {
      const records: unknown[] = trail(3)
      records.splice(1, 0, line)
      expect(verifyChain(records)).toMatchObject({ ok: false, index: 1, reason: 'malformed' })
    }
  })

  it('skips a record cut short by a crash when the next one chains to the one before it', () => {
    const records: unknown[] = trail(4)
    // The server died writing a record; on restart it chained the next one to seq 2.
    records.splice(2, 0, '{"audit":1,"caller":"alice","det')
    expect(verifyChain(records)).toMatchObject({
      ok: true,
      count: 5,
      last: { seq: 4 },
      cutLines: [3],
    })
  })

  it('catches a whole record cut short to hide it: the next one still chains to it', () => {
    const records: unknown[] = trail(4)
    records[2] = JSON.stringify(records[2]).slice(0, 40)
    expect(verifyChain(records)).toMatchObject({ ok: false, index: 3, seq: 4, reason: 'missing' })
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

describe('chaining audit records', () => {
  const who = { caller: 'acme/alice', tenant: 'acme', requestId: 'req-1' }
  const time = '2026-01-01T00:00:00.000Z'
  const entries: AuditEntry[] = [
    { ...entry(1) },
    { ...entry(2), ...who },
    {
      ...who,
      time,
      taskId: 't',
      skillId: 'echo',
      event: AuditEvent.taskReceived,
      outcome: 'received',
      details: { parts: 2, contextId: 'c' },
    },
    {
      time,
      taskId: 't',
      event: AuditEvent.artifactDelivered,
      outcome: 'delivered',
      details: { lastChunk: true, parts: 1, artifactId: 'a"\u2028', append: false },
    },
    {
      ...who,
      time,
      event: AuditEvent.rateLimitHit,
      outcome: 'limited',
      details: { route: '/tasks/send', method: 'POST', max: 5, limit: 'requests', windowMs: 10 },
    },
    {
      time,
      event: AuditEvent.authFailure,
      outcome: 'rejected',
      details: { reason: 'expired', method: 'GET', route: '/tasks/:id' },
    },
    {
      ...who,
      time,
      event: AuditEvent.permissionDenial,
      outcome: 'denied',
      details: { route: '/tasks/send', method: 'POST', required: ['skill:b', 'skill:a'] },
    },
  ]

  it('stores each record as its canonical JSON, with a hash over it without `hash`', () => {
    const chained = chain(entries, EMPTY_HEAD)
    for (const { line, seq, hash } of chained) {
      const record = JSON.parse(line) as AuditRecord
      const canonical = canonicalJson({ ...record, hash: undefined })
      expect(line).toBe(`${canonical.slice(0, -1)},"hash":"${hash}"}`)
      expect(record).toMatchObject({ audit: 1, seq, hash })
      expect(recordHash(record)).toBe(hash)
      expect(AuditRecord.safeParse(record).success).toBe(true)
    }
    expect(verifyChain(chained.map(({ line }) => JSON.parse(line) as AuditRecord))).toMatchObject({
      ok: true,
    })
  })

  it('writes details that are not flat (no record type has such) canonically too', () => {
    const nested = {
      ...entries[0]!,
      details: { z: { b: [{ d: 1, c: 2 }], a: null }, y: 'x' },
    } as unknown as AuditEntry
    const [{ line, hash }] = chain([nested], EMPTY_HEAD) as [ChainedRecord]
    expect(line).toContain('"details":{"y":"x","z":{"a":null,"b":[{"c":2,"d":1}]}}')
    expect(recordHash(JSON.parse(line) as AuditRecord)).toBe(hash)
  })

  it('leaves out the fields an entry does not have', () => {
    const [line] = chain([entries[0]!], EMPTY_HEAD).map((record) => record.line)
    expect(Object.keys(JSON.parse(line!) as object)).toEqual([
      'audit',
      'details',
      'event',
      'outcome',
      'prev',
      'seq',
      'skillId',
      'taskId',
      'time',
      'hash',
    ])
  })
})
