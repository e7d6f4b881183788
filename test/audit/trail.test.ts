/**
 * The trail over restarts and failures, and `a2a audit verify` (called as `run(argv)`) on a
 * file and on a Redis stream, intact and tampered with.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { pino } from 'pino'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { readAuditStream } from '../../src/audit/read.js'
import type { AuditEntry } from '../../src/audit/record.js'
import { AuditEvent } from '../../src/audit/record.js'
import { RedisAuditSink } from '../../src/audit/sinks/redis.js'
import { StdoutAuditSink } from '../../src/audit/sinks/stdout.js'
import { AuditTrail } from '../../src/audit/trail.js'
import { verifyChain } from '../../src/audit/verify.js'
import { run } from '../../src/cli/commands/audit.js'
import { MemoryEventLog } from '../../src/store/memory/event-log.js'
import { connectRedis } from '../../src/store/redis/connection.js'
import { MemoryTaskStore } from '../../src/store/memory/task-store.js'
import { sendBody } from '../helpers/bodies.js'
import { testApp } from '../helpers/app.js'
import { keptLog } from '../helpers/log.js'
import { freePort } from '../helpers/free-port.js'
import { connectTestRedis, deleteKeysUnder, testPrefix } from '../helpers/redis.js'

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'

async function sendEchoes(app: FastifyInstance, count: number): Promise<void> {
  for (let n = 0; n < count; n++) {
    const reply = await app.inject({
      method: 'POST',
      url: '/tasks/send',
      payload: sendBody(`echo ${n}`, { metadata: { skillId: 'echo' } }),
    })
    expect(reply.statusCode).toBe(200)
  }
}

/** Runs the command and captures what it prints. */
async function verify(...argv: string[]) {
  let out = ''
  let err = ''
  const code = await run(['verify', ...argv], {
    out: { write: (chunk: string) => ((out += chunk), true) },
    err: { write: (chunk: string) => ((err += chunk), true) },
  })
  return { code, out, err }
}

const quietLog = pino({ level: 'silent' })

const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n')

describe('the file sink', () => {
  let dir = ''
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'a2a-audit-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('continues the chain from the file after a restart', async () => {
    const file = join(dir, 'restart.jsonl')
    for (let start = 0; start < 2; start++) {
      const app = await testApp({ AUDIT_SINK: 'file', AUDIT_FILE: file })
      await sendEchoes(app, 2)
      await app.close()
    }
    const records = lines(file).map((line) => JSON.parse(line))
    expect(records.map((r) => r.seq)).toEqual(Array.from({ length: 16 }, (_, n) => n + 1))
    expect(records[8].prev).toBe(records[7].hash)
    const checked = await verify('--file', file)
    expect(checked).toMatchObject({ code: 0, err: '' })
    expect(checked.out).toContain('16 records, chain intact from the first record to seq 16')
    // Records name callers, tenants and addresses: the file is its owner's alone.
    expect(statSync(file).mode & 0o777).toBe(0o600)
  })

  it('after a crash cut a record short, goes on past it, and the trail still verifies', async () => {
    const file = join(dir, 'crash.jsonl')
    let app = await testApp({ AUDIT_SINK: 'file', AUDIT_FILE: file })
    await sendEchoes(app, 1)
    await app.close()
    // The process died while writing its fifth record: half a line, no newline.
    writeFileSync(file, '{"audit":1,"caller":"dev-user","details":{"fin', { flag: 'a' })
    app = await testApp({ AUDIT_SINK: 'file', AUDIT_FILE: file })
    await sendEchoes(app, 1)
    await app.close()
    const checked = await verify('--file', file)
    expect(checked).toMatchObject({ code: 0, err: '' })
    expect(checked.out).toContain('8 records, chain intact from the first record to seq 8')
    expect(checked.out).toContain(
      'line 5: a record cut short by a crash while it was written, never part of the chain (the next record chains to the one before)',
    )
    // Tampering after the cut is still caught.
    const text = readFileSync(file, 'utf8')
    const at = text.lastIndexOf('"outcome":"completed"')
    const edited = join(dir, 'crash-edited.jsonl')
    writeFileSync(edited, `${text.slice(0, at)}"outcome":"canceled"${text.slice(at + 21)}`)
    expect((await verify('--file', edited)).code).toBe(1)
  })

  it('stops the start with a clear message when the file cannot be opened', async () => {
    await expect(
      testApp({ AUDIT_SINK: 'file', AUDIT_FILE: join(dir, 'no-such-dir', 'audit.jsonl') }),
    ).rejects.toThrow(/AUDIT_FILE: cannot open ".*no-such-dir\/audit.jsonl"/)
  })

  it('never fails a request when the sink fails: records queue and failures are counted', async () => {
    // The memory store serves tasks; only the audit stream points at a Redis nobody runs.
    const events = new MemoryEventLog()
    const app = await testApp(
      { AUDIT_SINK: 'redis', REDIS_URL: 'redis://127.0.0.1:1', SHUTDOWN_GRACE_MS: '200' },
      { store: { tasks: new MemoryTaskStore(events), events } },
    )
    await sendEchoes(app, 3)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(app.audit.stats()).toMatchObject({ written: 0, queued: 12, dropped: 0 })
    expect(app.audit.stats().failures).toBeGreaterThan(0)
    await app.close()
  })
})

describe('a full queue', () => {
  it('leaves a records-dropped record in the chain, which verify reports', async () => {
    const written: string[] = []
    const sink = new StdoutAuditSink({
      write: (text: string, done: (error?: Error | null) => void) => {
        written.push(...text.trim().split('\n'))
        done()
        return true
      },
    } as never)
    const trail = new AuditTrail(sink, pino({ level: 'silent' }), { queueMax: 2 })
    const entry = (n: number): AuditEntry => ({
      time: new Date().toISOString(),
      event: AuditEvent.stateChange,
      outcome: 'working',
      details: { final: false },
      taskId: `task-${n}`,
    })
    // Made in one turn of the event loop: two fit in the queue, three do not.
    for (let n = 1; n <= 5; n++) trail.record(entry(n))
    expect(await trail.flush(1000)).toBe(true)
    trail.record(entry(6))
    expect(await trail.flush(1000)).toBe(true)
    const records = written.map((line) => JSON.parse(line))
    expect(records.map((r) => r.taskId ?? `${r.event} ${r.details.count}`)).toEqual([
      'task-1',
      'task-2',
      'records-dropped 3',
      'task-6',
    ])
    expect(verifyChain(records)).toMatchObject({ ok: true, count: 4, dropped: 3 })
    expect(trail.stats()).toMatchObject({ written: 4, dropped: 3 })
    const dir = mkdtempSync(join(tmpdir(), 'a2a-audit-'))
    try {
      writeFileSync(join(dir, 'trail.jsonl'), `${written.join('\n')}\n`)
      const checked = await verify('--file', join(dir, 'trail.jsonl'))
      expect(checked.code).toBe(0)
      expect(checked.out).toContain(
        "but 3 records were dropped before they were written (the server's audit queue was full)",
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('a2a audit verify --file', () => {
  let dir = ''
  let file = ''
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'a2a-audit-'))
    file = join(dir, 'trail.jsonl')
    const app = await testApp({ AUDIT_SINK: 'file', AUDIT_FILE: file })
    await sendEchoes(app, 2)
    await app.close()
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  const tampered = (name: string, change: (lines: string[]) => string[]) => {
    const path = join(dir, name)
    writeFileSync(path, `${change(lines(file)).join('\n')}\n`)
    return path
  }

  it('says the intact trail is intact, exit 0, also as JSON', async () => {
    const checked = await verify('--file', file, '--json')
    expect(checked.code).toBe(0)
    expect(JSON.parse(checked.out)).toMatchObject({ ok: true, count: 8, firstSeq: 1 })
  })

  it('runs as `a2a audit verify`, the built command a user runs', () => {
    const cli = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'cli', 'main.js')
    const intact = spawnSync(process.execPath, [cli, 'audit', 'verify', '--file', file])
    expect(intact.status).toBe(0)
    expect(intact.stdout.toString()).toContain('8 records')
    const broken = tampered('cli-deleted.jsonl', (all) => all.filter((_, i) => i !== 3))
    expect(spawnSync(process.execPath, [cli, 'audit', 'verify', '--file', broken]).status).toBe(1)
  })

  it('catches an edited record, exit 1', async () => {
    const path = tampered('edited.jsonl', (all) =>
      all.map((line, n) => (n === 2 ? line.replace('"parts":1', '"parts":2') : line)),
    )
    const checked = await verify('--file', path)
    expect(checked.code).toBe(1)
    expect(checked.out).toContain('BROKEN')
    expect(checked.out).toContain('reason: edited; at record 3 of 8')
  })

  it('catches a deleted record, exit 1', async () => {
    const path = tampered('deleted.jsonl', (all) => all.filter((_, n) => n !== 5))
    const checked = await verify('--file', path, '--json')
    expect(checked.code).toBe(1)
    expect(JSON.parse(checked.out)).toMatchObject({ ok: false, reason: 'missing', seq: 7 })
  })

  it('catches a reordered pair, exit 1', async () => {
    const path = tampered('reordered.jsonl', (all) => {
      const swapped = all.slice()
      ;[swapped[2], swapped[3]] = [all[3]!, all[2]!]
      return swapped
    })
    const checked = await verify('--file', path, '--json')
    expect(checked.code).toBe(1)
    expect(JSON.parse(checked.out)).toMatchObject({ ok: false, reason: 'reordered', index: 2 })
  })

  it('takes the file as a path too', async () => {
    const checked = await verify(file)
    expect(checked.code).toBe(0)
    expect(checked.out).toMatch(/^ok: .*: \d+ records, chain intact from the first record/)
  })

  it('answers a usage error with exit 2', async () => {
    expect((await verify()).code).toBe(2)
    expect((await verify('--file', file, '--redis', REDIS_URL)).code).toBe(2)
    expect((await verify(file, '--redis', REDIS_URL)).code).toBe(2)
    expect((await verify(file, '--file', file)).code).toBe(2)
    expect((await verify(file, '--file', file)).err).toContain('as paths or with --file, not both')
    const missing = await verify('--file', join(dir, 'absent.jsonl'))
    expect(missing.code).toBe(2)
    expect(missing.err).toContain('cannot read the audit trail')
    writeFileSync(join(dir, 'empty.jsonl'), '')
    const empty = await verify(join(dir, 'empty.jsonl'))
    expect(empty).toMatchObject({ code: 2, out: '' })
    expect(empty.err).toBe(`a2a audit: ${join(dir, 'empty.jsonl')} holds no audit records\n`)
    const quiet = { out: { write: () => true }, err: { write: () => true } }
    expect(await run(['rewrite'], quiet)).toBe(2)
  })
})

describe('a2a audit verify --redis', () => {
  const redis = connectTestRedis()
  let prefix = ''
  afterEach(() => deleteKeysUnder(redis, prefix))
  afterAll(() => redis.quit())

  /** A trail of 8 records on a fresh prefix; returns the stream's entries. */
  async function streamTrail() {
    prefix = testPrefix()
    const app = await testApp({ AUDIT_SINK: 'redis', REDIS_URL, REDIS_KEY_PREFIX: prefix })
    await sendEchoes(app, 2)
    await app.close()
    const stream = `${prefix}audit:{trail}`
    return { stream, entries: await redis.xrange(stream, '-', '+') }
  }

  /** Writes the stream again with `records` (as an attacker with Redis access could). */
  async function rewrite(stream: string, records: string[]) {
    await redis.del(stream)
    for (const record of records) await redis.xadd(stream, '*', 'record', record)
  }

  it('says the intact stream is intact', async () => {
    await streamTrail()
    const checked = await verify('--redis', REDIS_URL, '--prefix', prefix)
    expect(checked).toMatchObject({ code: 0, err: '' })
    expect(checked.out).toContain('8 records, chain intact from the first record to seq 8')
  })

  it('catches an edited record', async () => {
    const { stream, entries } = await streamTrail()
    const records = entries.map(([, fields]) => fields[1]!)
    records[1] = records[1]!.replace('"working"', '"completed"')
    await rewrite(stream, records)
    const checked = await verify('--redis', REDIS_URL, '--prefix', prefix, '--json')
    expect(checked.code).toBe(1)
    expect(JSON.parse(checked.out)).toMatchObject({ ok: false, reason: 'edited', seq: 2 })
  })

  it('catches a deleted record, in the middle and at the end', async () => {
    const { stream, entries } = await streamTrail()
    await redis.xdel(stream, entries[7]![0])
    const atEnd = await verify('--redis', REDIS_URL, '--prefix', prefix, '--json')
    expect(atEnd.code).toBe(1)
    expect(JSON.parse(atEnd.out)).toMatchObject({ ok: false, reason: 'missing', seq: 8 })
    await redis.xdel(stream, entries[4]![0])
    const inMiddle = await verify('--redis', REDIS_URL, '--prefix', prefix, '--json')
    expect(JSON.parse(inMiddle.out)).toMatchObject({ ok: false, reason: 'missing', seq: 6 })
  })

  it('catches a reordered pair', async () => {
    const { stream, entries } = await streamTrail()
    const records = entries.map(([, fields]) => fields[1]!)
    ;[records[5], records[6]] = [records[6]!, records[5]!]
    await rewrite(stream, records)
    const checked = await verify('--redis', REDIS_URL, '--prefix', prefix, '--json')
    expect(JSON.parse(checked.out)).toMatchObject({ ok: false, reason: 'reordered', index: 5 })
  })

  it('finds nothing under a mistyped prefix: exit 2, saying where it looked', async () => {
    await streamTrail()
    const typo = prefix.slice(0, -1)
    const checked = await verify('--redis', REDIS_URL, '--prefix', typo)
    expect(checked).toMatchObject({ code: 2, out: '' })
    expect(checked.err).toBe(
      `a2a audit: ${REDIS_URL} holds no audit records under ${typo}audit:{trail} ` +
        `(--prefix is the server's REDIS_KEY_PREFIX, its last ":" included)\n`,
    )
  })

  it('cannot reach Redis: exit 2 with the reason, and no password printed', async () => {
    const checked = await verify('--redis', 'redis://:hunter2@127.0.0.1:1')
    expect(checked.code).toBe(2)
    expect(checked.err).toContain('cannot read the audit trail: connect ECONNREFUSED 127.0.0.1:1')
    expect(checked.err + checked.out).not.toContain('hunter2')
  })

  it('refuses a --redis that is no Redis URL, or names no whole-number database: exit 2', async () => {
    for (const [url, problem] of [
      ['http://127.0.0.1:6379', 'must be a URL starting with redis:// or rediss://'],
      [`${REDIS_URL}/abc`, 'names database "abc"'],
    ]) {
      const checked = await verify('--redis', url!)
      expect(checked.code).toBe(2)
      expect(checked.err).toContain(`a2a audit: --redis ${problem}`)
    }
  })
})

describe('the Redis sink', () => {
  const redis = connectTestRedis()
  const prefix = testPrefix()
  afterAll(async () => {
    await deleteKeysUnder(redis, prefix)
    await redis.quit()
  })

  it('fails a write while Redis is unreachable in plain words, not the Redis client’s', async () => {
    const down = connectRedis(`redis://127.0.0.1:${await freePort()}`, 'audit-test')
    down.on('error', () => undefined)
    try {
      const sink = new RedisAuditSink({ redis: down, prefix, maxLength: 1000, log: quietLog })
      const entry: AuditEntry = {
        time: new Date().toISOString(),
        event: AuditEvent.rateLimitHit,
        caller: 'someone',
        outcome: 'limited',
        details: { method: 'POST', route: '/tasks/send', limit: 'requests', max: 1 },
      }
      await expect(sink.append([entry])).rejects.toMatchObject({
        name: 'RedisUnavailableError',
        message: 'Redis is unreachable',
      })
    } finally {
      down.disconnect()
    }
  })

  it('re-chains after the head another writer moved, so two writers make one chain', async () => {
    const writers = [0, 1].map(
      () =>
        new RedisAuditSink({ redis: connectTestRedis(), prefix, maxLength: 1000, log: quietLog }),
    )
    const entry = (writer: number, n: number): AuditEntry => ({
      time: new Date().toISOString(),
      event: AuditEvent.rateLimitHit,
      caller: `writer-${writer}`,
      outcome: 'limited',
      details: { method: 'POST', route: '/tasks/send', limit: 'requests', max: n },
    })
    await Promise.all(
      writers.map(async (sink, writer) => {
        for (let n = 0; n < 20; n++) await sink.append([entry(writer, n), entry(writer, n)])
      }),
    )
    await Promise.all(writers.map((sink) => sink.close()))
    const { records, head } = await readAuditStream(redis, prefix)
    expect(records).toHaveLength(80)
    expect(verifyChain(records, { head: head! })).toMatchObject({
      ok: true,
      count: 80,
      firstSeq: 1,
    })
    // Each writer's own records stay in its order.
    for (const writer of [0, 1]) {
      const mine = records.filter((r: any) => r.caller === `writer-${writer}`)
      expect(mine.map((r: any) => r.details.max)).toEqual(
        Array.from({ length: 40 }, (_, n) => Math.floor(n / 2)),
      )
    }
  })

  it('says so in its log and in the trail when the trail went back (deleted, or lost with Redis data)', async () => {
    const own = testPrefix()
    const { lines, logger } = keptLog('error')
    const sink = new RedisAuditSink({
      redis: connectTestRedis(),
      prefix: own,
      maxLength: 1000,
      log: logger,
    })
    const entry = (n: number): AuditEntry => ({
      time: new Date().toISOString(),
      event: AuditEvent.rateLimitHit,
      caller: 'someone',
      outcome: 'limited',
      details: { method: 'POST', route: '/tasks/send', limit: 'requests', max: n },
    })
    try {
      await sink.append([entry(1), entry(2), entry(3)])
      const written = (await readAuditStream(redis, own)).head!
      await redis.del(`${own}audit:{trail}`, `${own}audit:{trail}:head`)
      await sink.append([entry(4)])

      expect(lines).toEqual([
        expect.objectContaining({
          level: 50,
          msg: expect.stringMatching(/^the audit trail in Redis went back from seq 3 to seq 0: /),
        }),
      ])
      const { records, head } = await readAuditStream(redis, own)
      expect(records).toMatchObject([
        { seq: 1, event: 'trail-lost', outcome: 'lost', details: { seq: 3, hash: written.hash } },
        { seq: 2, event: 'rate-limit-hit', details: { max: 4 } },
      ])
      expect(verifyChain(records, { head: head! })).toMatchObject({
        ok: true,
        lost: [{ seq: 1, after: { seq: 3, hash: written.hash } }],
      })
      const checked = await verify('--redis', REDIS_URL, '--prefix', own)
      expect(checked.code).toBe(1)
      expect(checked.out).toBe(
        `LOST: ${REDIS_URL}: 2 records, chain intact from the first record to seq 2, but records before were lost\n` +
          `  last hash: ${head!.hash}\n` +
          `  at seq 1 the trail started again: the records before it, up to the server's seq 3 (hash ${written.hash}), were deleted, or lost with Redis' data\n`,
      )
    } finally {
      await sink.close()
      await deleteKeysUnder(redis, own)
    }
  })
})

describe('the Redis stream cap', () => {
  const redis = connectTestRedis()
  const prefix = testPrefix()
  afterAll(async () => {
    await deleteKeysUnder(redis, prefix)
    await redis.quit()
  })

  it('drops the oldest records; the kept ones verify from the oldest kept, given the cap', async () => {
    const app = await testApp({
      AUDIT_SINK: 'redis',
      REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
      AUDIT_STREAM_MAXLEN: '100',
    })
    await sendEchoes(app, 80)
    await app.close()
    const length = await redis.xlen(`${prefix}audit:{trail}`)
    expect(length).toBeLessThan(320)
    expect(length).toBeGreaterThanOrEqual(100)
    const checked = await verify(
      '--redis',
      REDIS_URL,
      '--prefix',
      prefix,
      '--maxlen',
      '100',
      '--json',
    )
    expect(checked.code).toBe(0)
    expect(JSON.parse(checked.out)).toMatchObject({
      ok: true,
      count: length,
      firstSeq: 320 - length + 1,
      cap: 100,
      last: { seq: 320 },
    })
  })
})
