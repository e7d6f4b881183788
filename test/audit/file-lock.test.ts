/**
 * One writer per audit file: a second file sink on a file another one writes (by the same path
 * or another) is refused, and one whose writer died takes the lock over, so the chain stays
 * linear. The same across real processes: test/process/audit-file-lock.test.ts.
 */
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  utimesSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditEntry } from '../../src/audit/record.js'
import { AuditEvent } from '../../src/audit/record.js'
import { STALE_MS } from '../../src/audit/sinks/file-lock.js'
import { FileAuditSink } from '../../src/audit/sinks/file.js'
import { verifyChain } from '../../src/audit/verify.js'
import { keptLog } from '../helpers/log.js'

const entry = (taskId: string): AuditEntry => ({
  time: new Date().toISOString(),
  event: AuditEvent.taskReceived,
  outcome: 'received',
  details: { contextId: 'ctx-1', parts: 1 },
  taskId,
})

const records = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { seq: number })

describe('the audit file lock', () => {
  let dir = ''
  beforeAll(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'a2a-audit-lock-')))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('refuses a second writer of the file, by the same path or a link to it, until the first closes', async () => {
    const file = join(dir, 'one-writer.jsonl')
    const link = join(dir, 'link.jsonl')
    const { logger } = keptLog()
    const first = new FileAuditSink(file, logger)
    await first.open()
    await first.append([entry('a')])
    symlinkSync(file, link)

    for (const path of [file, link]) {
      const second = new FileAuditSink(path, logger, { waitMs: 0 })
      await expect(second.open()).rejects.toThrow(
        `another process writes it (its lock ${file}.lock is live): two writers would fork its hash chain. Give each process its own AUDIT_FILE, or use AUDIT_SINK=redis for several processes`,
      )
    }
    await first.append([entry('b')])
    await first.close()

    const next = new FileAuditSink(link, logger, { waitMs: 0 })
    await next.open()
    await next.append([entry('c')])
    await next.close()
    const written = records(file)
    expect(written.map((record) => record.seq)).toEqual([1, 2, 3])
    expect(verifyChain(written)).toMatchObject({ ok: true, count: 3 })
  })

  it('waits for a live lock before it gives up, and says so in the log', async () => {
    const file = join(dir, 'waits.jsonl')
    const { logger, lines } = keptLog()
    const first = new FileAuditSink(file, logger)
    await first.open()
    const started = Date.now()
    await expect(new FileAuditSink(file, logger, { waitMs: 2000 }).open()).rejects.toThrow(
      'another process writes it',
    )
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000)
    expect(lines.map((line) => line.msg)).toEqual([
      `the audit file is locked by another writer (${file}.lock); waiting up to 2 s for the lock to go, in case that writer is gone`,
    ])
    await first.close()
  }, 10_000)

  it('takes over the lock of a writer that died, at once, and continues its chain', async () => {
    const file = join(dir, 'died.jsonl')
    const { logger } = keptLog()
    const before = new FileAuditSink(file, logger)
    await before.open()
    await before.append([entry('a')])
    await before.close()
    // What a killed writer leaves: its lock, no longer refreshed.
    mkdirSync(`${file}.lock`)
    const past = (Date.now() - STALE_MS - 5000) / 1000
    utimesSync(`${file}.lock`, past, past)

    const after = new FileAuditSink(file, logger, { waitMs: 0 })
    await after.open()
    await after.append([entry('b')])
    await after.close()
    const written = records(file)
    expect(written.map((record) => record.seq)).toEqual([1, 2])
    expect(verifyChain(written)).toMatchObject({ ok: true, count: 2 })
  })
})
