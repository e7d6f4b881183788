/**
 * `a2a audit verify`, run as the built binary, on trails that lack their first records: a Redis
 * stream that its cap trimmed, or whose oldest records were deleted; a file whose first records
 * are gone, or rotated into other files. What the user sees: the verdict and the exit code.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pino } from 'pino'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { chain } from '../../src/audit/hash.js'
import type { AuditEntry } from '../../src/audit/record.js'
import { AuditEvent, EMPTY_HEAD } from '../../src/audit/record.js'
import { RedisAuditSink } from '../../src/audit/sinks/redis.js'
import { connectTestRedis, deleteKeysUnder, testPrefix } from '../helpers/redis.js'
import { ensureBuilt, runCli } from './run-cli.js'

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'

const entries = (count: number): AuditEntry[] =>
  Array.from({ length: count }, (_, n) => ({
    time: new Date(1_700_000_000_000 + n).toISOString(),
    event: AuditEvent.rateLimitHit,
    caller: 'acme/alice',
    outcome: 'limited',
    details: { method: 'POST', route: '/tasks/send', limit: 'requests', max: n },
  }))

beforeAll(() => ensureBuilt(), 200_000)

describe('a2a audit verify --redis, on a stream without its first records', () => {
  const redis = connectTestRedis()
  let prefix = ''
  afterEach(() => deleteKeysUnder(redis, prefix))
  afterAll(() => redis.quit())

  /** `count` records appended by the server's sink with cap `maxLength`, on a fresh prefix. */
  async function streamOf(count: number, maxLength: number) {
    prefix = testPrefix()
    const sink = new RedisAuditSink({
      redis: connectTestRedis(),
      prefix,
      maxLength,
      log: pino({ level: 'silent' }),
    })
    await sink.append(entries(count))
    await sink.close()
    const stream = `${prefix}audit:{trail}`
    const length = await redis.xlen(stream)
    const lastHash = (await redis.hget(`${stream}:head`, 'hash'))!
    return { stream, length, firstSeq: count - length + 1, lastHash }
  }

  const verify = (env: Record<string, string>, ...options: string[]) =>
    runCli(['audit', 'verify', '--redis', REDIS_URL, '--prefix', prefix, ...options], { env })

  async function deleteOldest(stream: string, count: number) {
    const oldest = await redis.xrange(stream, '-', '+', 'COUNT', count)
    await redis.xdel(stream, ...oldest.map(([id]) => id))
  }

  it('is broken when the oldest record was deleted far below the cap, naming the first seq found', async () => {
    const { stream } = await streamOf(2, 100_000)
    await deleteOldest(stream, 1)
    const checked = await verify({})
    expect(checked).toMatchObject({ code: 1, stderr: '' })
    expect(checked.stdout).toBe(
      `BROKEN: ${REDIS_URL}: the trail starts at seq 2: record seq 1 is missing, and the cap does ` +
        'not explain it: the stream holds 1 record, and a cap of 100000 never trims it below 100000\n' +
        '  reason: missing; at record 1 of 1\n' +
        "  the cap is AUDIT_STREAM_MAXLEN's default, 100000: if the server's is lower, give it with --maxlen\n",
    )
  })

  it('is broken when the oldest records a trimmed stream kept were deleted below its cap', async () => {
    const { stream, length, firstSeq } = await streamOf(150, 100)
    await deleteOldest(stream, length - 99)
    const first = firstSeq + length - 99
    const checked = await verify({}, '--maxlen', '100')
    expect(checked.code).toBe(1)
    expect(checked.stdout).toBe(
      `BROKEN: ${REDIS_URL}: the trail starts at seq ${first}: records seq 1-${first - 1} are ` +
        'missing, and the cap does not explain it: the stream holds 99 records, and a cap of 100 ' +
        'never trims it below 100\n' +
        '  reason: missing; at record 1 of 99\n',
    )
  })

  it('verifies a stream its cap trimmed from the oldest record kept, naming the cap, not a cause', async () => {
    const { length, firstSeq, lastHash } = await streamOf(150, 100)
    expect(length).toBeLessThan(150)
    const checked = await verify({}, '--maxlen', '100')
    expect(checked).toMatchObject({ code: 0, stderr: '' })
    expect(checked.stdout).toBe(
      `ok: ${REDIS_URL}: ${length} records, chain intact from seq ${firstSeq} to seq 150\n` +
        `  records before seq ${firstSeq} are not kept (the cap is 100)\n` +
        `  last hash: ${lastHash}\n`,
    )
    const json = await verify({}, '--maxlen', '100', '--json')
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, firstSeq, cap: 100 })
  })

  it('takes the cap from AUDIT_STREAM_MAXLEN when --maxlen is not given', async () => {
    await streamOf(150, 100)
    expect((await verify({ AUDIT_STREAM_MAXLEN: '100' })).code).toBe(0)
    const stricter = await verify({ AUDIT_STREAM_MAXLEN: '1000' })
    expect(stricter.code).toBe(1)
    expect(stricter.stdout).toContain('and a cap of 1000 never trims it below 1000\n')
  })

  it('holds a stream that is not capped (--maxlen 0) to start at seq 1', async () => {
    const { stream } = await streamOf(3, 100)
    await deleteOldest(stream, 1)
    const checked = await verify({}, '--maxlen', '0', '--json')
    expect(checked.code).toBe(1)
    expect(JSON.parse(checked.stdout)).toEqual({
      ok: false,
      count: 2,
      index: 0,
      seq: 2,
      reason: 'missing',
      message: 'the trail starts at seq 2: record seq 1 is missing, and the stream is not capped',
    })
  })

  it('refuses a cap that is not a whole number: exit 2', async () => {
    prefix = testPrefix()
    const option = await verify({}, '--maxlen', '1e5')
    expect(option).toMatchObject({ code: 2, stdout: '' })
    expect(option.stderr).toMatch(
      /^a2a audit: --maxlen must be a whole number of records \(0: the stream is not capped\), not "1e5"\n/,
    )
    const setting = await verify({ AUDIT_STREAM_MAXLEN: 'lots' })
    expect(setting.code).toBe(2)
    expect(setting.stderr).toContain('a2a audit: AUDIT_STREAM_MAXLEN must be a whole number')
  })
})

describe('a2a audit verify, on files without their first records', () => {
  let dir = ''
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'a2a-audit-cli-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  /** Records seq `from` to `to` of one chain, written to `name`. */
  function fileOf(name: string, from: number, to: number): string {
    const lines = chain(entries(to), EMPTY_HEAD)
      .slice(from - 1)
      .map(({ line }) => `${line}\n`)
    const path = join(dir, name)
    writeFileSync(path, lines.join(''))
    return path
  }

  it('is broken when a file lacks its first records, and says rotated files go oldest first', async () => {
    const path = fileOf('audit.jsonl', 3, 5)
    const checked = await runCli(['audit', 'verify', path])
    expect(checked).toMatchObject({ code: 1, stderr: '' })
    expect(checked.stdout).toBe(
      `BROKEN: ${path}: the trail starts at seq 3: records seq 1-2 are missing, and no cap drops ` +
        'records from it\n' +
        '  reason: missing; at record 1 of 3\n' +
        '  a rotated file continues the one before it: give the files oldest first ' +
        '(a2a audit verify audit.jsonl.1 audit.jsonl)\n',
    )
  })

  it('verifies rotated files as one trail, given oldest first', async () => {
    const older = fileOf('rotated.jsonl.1', 1, 2)
    const newer = fileOf('rotated.jsonl', 3, 5)
    const checked = await runCli(['audit', 'verify', older, newer])
    expect(checked).toMatchObject({ code: 0, stderr: '' })
    expect(checked.stdout).toMatch(
      new RegExp(
        `^ok: ${older}, ${newer}: 5 records, chain intact from the first record to seq 5\n`,
      ),
    )
    expect((await runCli(['audit', 'verify', '--file', older, '--file', newer])).code).toBe(0)
    expect((await runCli(['audit', 'verify', newer, older])).code).toBe(1)
  })

  it('refuses --maxlen with a file, which has no cap: exit 2', async () => {
    const path = fileOf('capless.jsonl', 1, 2)
    const checked = await runCli(['audit', 'verify', path, '--maxlen', '100'])
    expect(checked).toMatchObject({ code: 2, stdout: '' })
    expect(checked.stderr).toContain(
      "a2a audit: --maxlen is the Redis stream's cap: give it with --redis",
    )
  })
})
