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
 * The Redis trail, oldest record first, and its head. The head is read first: records the
 * server appends meanwhile only extend the trail past it.
 */
export async function readAuditStream(
  redis: Redis,
  prefix: string,
  pageSize = 1000,
): Promise<{ records: unknown[]; head?: ChainHead }> {
  const keys = auditKeys(prefix)
  const [hash, seq] = await redis.hmget(keys.head, 'hash', 'seq')
  // The trail as of the head read first: on a live server, records appended while the pages
  // are read are newer than that head, and are left for the next read.
  const last = seq ? Number(seq) : undefined
  const records: unknown[] = []
  let start = '-'
  for (;;) {
    const page = await redis.xrange(keys.stream, start, '+', 'COUNT', pageSize)
    for (const [, fields] of page) {
      const at = fields.indexOf('record')
      const record = at === -1 || at % 2 === 1 ? fields : parseLine(fields[at + 1] ?? '')
      records.push(record)
      if (last !== undefined && (record as { seq?: unknown }).seq === last) return snapshot()
    }
    if (page.length < pageSize) break
    start = `(${page[page.length - 1]![0]}`
  }
  return snapshot()

  function snapshot() {
    return { records, ...(hash && last !== undefined && { head: { hash, seq: last } }) }
  }
}
