/** Reads a stored audit trail back, in stored order, for the verifier (a2a audit verify). */
import { readFile } from 'node:fs/promises'
import type { Redis } from 'ioredis'
import { auditKeys } from './keys.js'
import type { ChainHead } from './record.js'

/** Not JSON: kept as the raw line, so the verifier reports it where it is. */
const parseLine = (line: string): unknown => {
  try {
    return JSON.parse(line) as unknown
  } catch {
    return line
  }
}

/** Every line of an audit file (blank lines skipped), parsed. */
export async function readAuditFile(path: string): Promise<unknown[]> {
  const text = await readFile(path, 'utf8')
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map(parseLine)
}

/**
 * The Redis trail, oldest record first, its head, and how many entries the stream held. The
 * head, the length and the first page are read in one transaction: a live server's appends (and
 * the trimming they cause) land wholly before or after it, so the length belongs to the first
 * record read, and records appended later only extend the trail past the head.
 */
export async function readAuditStream(
  redis: Redis,
  prefix: string,
  pageSize = 1000,
): Promise<{ records: unknown[]; head?: ChainHead; length: number }> {
  const keys = auditKeys(prefix)
  const replies = await redis
    .multi()
    .hmget(keys.head, 'hash', 'seq')
    .xlen(keys.stream)
    .xrange(keys.stream, '-', '+', 'COUNT', pageSize)
    .exec()
  const failed = replies?.find(([error]) => error)
  if (!replies || failed) throw failed?.[0] ?? new Error('the read of the audit trail was aborted')
  const [hash, seq] = replies[0]![1] as (string | null)[]
  const length = replies[1]![1] as number
  let page = replies[2]![1] as [id: string, fields: string[]][]
  // Records appended after the head was read are left for the next verification.
  const last = seq ? Number(seq) : undefined
  const records: unknown[] = []
  for (;;) {
    for (const [, fields] of page) {
      const at = fields.indexOf('record')
      const record = at === -1 || at % 2 === 1 ? fields : parseLine(fields[at + 1] ?? '')
      records.push(record)
      if (last !== undefined && (record as { seq?: unknown }).seq === last) return snapshot()
    }
    if (page.length < pageSize) break
    page = await redis.xrange(keys.stream, `(${page[page.length - 1]![0]}`, '+', 'COUNT', pageSize)
  }
  return snapshot()

  function snapshot() {
    return {
      records,
      length,
      ...(hash && last !== undefined && { head: { hash, seq: last } }),
    }
  }
}
