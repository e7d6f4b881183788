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
  const records: unknown[] = []
  let start = '-'
  for (;;) {
    const page = await redis.xrange(keys.stream, start, '+', 'COUNT', pageSize)
    for (const [, fields] of page) {
      const at = fields.indexOf('record')
      records.push(at === -1 || at % 2 === 1 ? fields : parseLine(fields[at + 1] ?? ''))
    }
    if (page.length < pageSize) break
    start = `(${page[page.length - 1]![0]}`
  }
  return { records, ...(hash && seq && { head: { hash, seq: Number(seq) } }) }
}
