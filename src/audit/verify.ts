/**
 * Checks an audit trail: records in the order they were stored → intact, or the first place
 * where the chain breaks and why. Pure: reading a file or a stream is the caller's business.
 *
 * - `malformed`: not a record at all (not JSON, or not the record schema).
 * - `edited`:    a record's hash does not match its content; or a record was edited and rehashed,
 *                so the next record's `prev` no longer matches it.
 * - `missing`:   records were deleted: seq jumps and the skipped records appear nowhere; at the
 *                end, the stored head is ahead of the last record; at the start, the trail lacks
 *                seq 1 and no cap explains it.
 * - `reordered`: the next record by seq is somewhere else in the trail.
 *
 * A line that is the start of a record and no more (`{"audit":1,…` cut short: the process died
 * while writing it) held no record of the chain: the file sink starts the next record on a new
 * line and chains it to the last whole record. It is skipped and reported (`cutLines`); the
 * chain check around it still catches a record cut to hide it, as its successor chains to it.
 *
 * A `trail-lost` record (the Redis sink found the trail gone, deleted or lost with Redis' data,
 * and started it again) leaves the chain intact from there on; the verdict lists it in `lost`.
 *
 * A trail that does not start at seq 1 is intact only when the Redis stream's cap explains the
 * missing start (see start.ts); coverage is then from its first seq on. Without a head to
 * compare with, removing the newest records leaves no trace; the Redis trail keeps one (its
 * head key) and `head` checks against it.
 */
import { recordHash } from './hash.js'
import type { ChainHead } from './record.js'
import { AuditEvent, AuditRecord, GENESIS } from './record.js'
import type { StreamCap } from './start.js'
import { unexplainedStart } from './start.js'

export type BreakReason = 'malformed' | 'edited' | 'missing' | 'reordered'

export type Verdict =
  | {
      ok: true
      count: number
      /** seq of the first record: 1 when the trail is whole, more when the cap explains it. */
      firstSeq?: number
      /** The cap that explains why the records before `firstSeq` are not kept (firstSeq > 1). */
      cap?: number
      last?: ChainHead
      /**
       * Entries the server dropped before they were written (its queue was full), as its
       * `records-dropped` records say; absent when none were.
       */
      dropped?: number
      /** Positions (1-based) of lines cut short by a crash while writing; absent when none. */
      cutLines?: number[]
      /**
       * Where the trail started again after losing records (its `trail-lost` records): the
       * record that says so, and the last record written before the loss; absent when none.
       * The chain from its first record on is intact, but what came before each is gone.
       */
      lost?: { seq: number; after: ChainHead }[]
    }
  | {
      ok: false
      count: number
      /** Position (0-based) of the first record that breaks the chain, in the order given. */
      index: number
      seq?: number
      reason: BreakReason
      message: string
    }

export interface VerifyOptions {
  /** The trail's own note of its last record, to catch records removed from the end. */
  head?: ChainHead
  /** The Redis stream's cap and length: what may explain a trail that lacks its first records. */
  cap?: StreamCap
}

export function verifyChain(items: readonly unknown[], options: VerifyOptions = {}): Verdict {
  const count = items.length
  const records: AuditRecord[] = []
  /** Where each record is among `items`: cut lines make the two differ. */
  const itemIndex: number[] = []
  const cutLines: number[] = []
  for (const [index, item] of items.entries()) {
    if (isCutLine(item)) {
      cutLines.push(index + 1)
      continue
    }
    const parsed = AuditRecord.safeParse(item)
    if (!parsed.success) {
      const seq = (item as { seq?: unknown } | null)?.seq
      return {
        ok: false,
        count,
        index,
        ...(typeof seq === 'number' && { seq }),
        reason: 'malformed',
        message: `record ${index + 1} is not an audit record`,
      }
    }
    records.push(parsed.data)
    itemIndex.push(index)
  }
  const positionOf = new Map(records.map((record, index) => [record.seq, index]))

  for (const [index, record] of records.entries()) {
    const broken = (reason: BreakReason, message: string): Verdict => ({
      ok: false,
      count,
      index: itemIndex[index]!,
      seq: record.seq,
      reason,
      message,
    })
    if (recordHash(record) !== record.hash) {
      return broken('edited', `record seq ${record.seq} was edited: its hash does not match`)
    }
    const before = records[index - 1]
    if (before === undefined) {
      if (record.seq === 1 && record.prev !== GENESIS) {
        return broken('edited', 'the first record (seq 1) does not start the chain')
      }
      const unexplained = record.seq > 1 && unexplainedStart(record.seq, options.cap)
      if (unexplained) return broken('missing', unexplained)
      continue
    }
    const expected = before.seq + 1
    if (record.seq === expected && record.prev === before.hash) continue
    if (record.seq === expected) {
      return {
        ok: false,
        count,
        index: itemIndex[index - 1]!,
        seq: before.seq,
        reason: 'edited',
        message: `record seq ${before.seq} was edited and rehashed: record seq ${record.seq} does not chain to it`,
      }
    }
    const elsewhere = positionOf.get(expected)
    if (elsewhere !== undefined || record.seq < expected) {
      return broken(
        'reordered',
        `record seq ${record.seq} follows seq ${before.seq}; seq ${expected} is ` +
          (elsewhere === undefined ? 'not here' : `at position ${itemIndex[elsewhere]! + 1}`),
      )
    }
    const gap = record.seq - expected
    return broken(
      'missing',
      `${gap === 1 ? `record seq ${expected} is` : `records seq ${expected}-${record.seq - 1} are`} missing (deleted)`,
    )
  }

  const last = records[records.length - 1]
  const { head } = options
  if (head && head.seq > 0) {
    if (last === undefined || last.seq < head.seq) {
      return {
        ok: false,
        count,
        index: count,
        seq: head.seq,
        reason: 'missing',
        message: `the trail ends at seq ${last?.seq ?? 0} but its head is seq ${head.seq}: the newest records were deleted`,
      }
    }
    const atHead = records[positionOf.get(head.seq) ?? -1]
    if (atHead !== undefined && atHead.hash !== head.hash) {
      return {
        ok: false,
        count,
        index: itemIndex[positionOf.get(head.seq)!]!,
        seq: head.seq,
        reason: 'edited',
        message: `record seq ${head.seq} was edited: it is not the record the head names`,
      }
    }
  }
  let dropped = 0
  const lost: { seq: number; after: ChainHead }[] = []
  for (const record of records) {
    if (record.event === AuditEvent.recordsDropped) dropped += record.details.count
    if (record.event === AuditEvent.trailLost) lost.push({ seq: record.seq, after: record.details })
  }
  return {
    ok: true,
    count,
    ...(records[0] && { firstSeq: records[0].seq }),
    ...(records[0] && records[0].seq > 1 && options.cap && { cap: options.cap.maxLength }),
    ...(last && { last: { seq: last.seq, hash: last.hash } }),
    ...(dropped > 0 && { dropped }),
    ...(cutLines.length > 0 && { cutLines }),
    ...(lost.length > 0 && { lost }),
  }
}

/** The start of a record line that is not JSON: a record the writer never finished. */
function isCutLine(item: unknown): boolean {
  if (typeof item !== 'string' || !item.startsWith(RECORD_START)) return false
  try {
    JSON.parse(item)
    return false
  } catch {
    return true
  }
}

/** How every record line begins (its canonical JSON: `audit` sorts first). */
const RECORD_START = '{"audit":1,'
