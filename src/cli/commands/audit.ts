/**
 * `a2a audit verify`: checks an audit trail's hash chain, from a file (AUDIT_SINK=file, or
 * stdout captured to a file) or from the Redis stream (AUDIT_SINK=redis).
 *
 *   a2a audit verify <path>… | --file <path>…                    [--json]
 *   a2a audit verify --redis <url> [--prefix <p>] [--maxlen <n>]  [--json]
 *
 * Exit codes: 0 the chain is intact, 1 it is broken, 2 a usage error, or the trail cannot be
 * read or holds no record.
 */
import { parseArgs } from 'node:util'
import type { Writable } from 'node:stream'
import { Redis } from 'ioredis'
import { auditKeys } from '../../audit/keys.js'
import { readAuditFile, readAuditStream } from '../../audit/read.js'
import type { ChainHead } from '../../audit/record.js'
import type { StreamCap } from '../../audit/start.js'
import type { Verdict } from '../../audit/verify.js'
import { verifyChain } from '../../audit/verify.js'
import { withoutPassword } from '../../domain/url-password.js'
import { databaseProblem } from '../../store/redis/database.js'

export const summary = "check the audit trail's hash chain"

/** The server's default AUDIT_STREAM_MAXLEN (src/config.ts). */
const DEFAULT_MAXLEN = 100_000

export const USAGE = `Usage:
  a2a audit verify <path>... [--json]       (or --file <path>, repeatable)
  a2a audit verify --redis <url> [--prefix <prefix>] [--maxlen <n>] [--json]

Checks the audit trail's hash chain. Exit 0: intact; 1: broken; 2: usage or read error, or
no audit record found.
Files are one trail in the order given: give rotated files oldest first. A trail must start
at seq 1, except a Redis stream that its cap may have trimmed.
--prefix is the server's REDIS_KEY_PREFIX (default a2a:).
--maxlen is the server's AUDIT_STREAM_MAXLEN (default: $AUDIT_STREAM_MAXLEN, else ${DEFAULT_MAXLEN});
  0: the stream is not capped. A stream that lacks its first records is broken unless it
  holds at least this many; with that many, deleting its oldest records is not detected.
`

export interface Io {
  out: Pick<Writable, 'write'>
  err: Pick<Writable, 'write'>
}

export async function run(
  argv: string[],
  io: Io = { out: process.stdout, err: process.stderr },
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const usage = (problem: string) => {
    io.err.write(`a2a audit: ${problem}\n\n${USAGE}`)
    return 2
  }
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        file: { type: 'string', multiple: true },
        redis: { type: 'string' },
        prefix: { type: 'string', default: 'a2a:' },
        maxlen: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    })
  } catch (error) {
    return usage(error instanceof Error ? error.message : String(error))
  }
  const { values, positionals } = parsed
  if (values.help) {
    io.out.write(USAGE)
    return 0
  }
  const [command, ...paths] = positionals
  if (command !== 'verify') return usage(`unknown audit command: ${command ?? '(none)'}`)
  if (paths.length > 0 && values.file !== undefined) {
    return usage('give the files as paths or with --file, not both')
  }
  const files = values.file ?? paths
  if ((files.length === 0) === (values.redis === undefined)) {
    return usage('give exactly one of a file (a path, or --file) or --redis')
  }
  const redisProblem = values.redis === undefined ? undefined : redisUrlProblem(values.redis)
  if (redisProblem) return usage(`--redis ${redisProblem}`)
  if (files.length > 0 && values.maxlen !== undefined) {
    return usage("--maxlen is the Redis stream's cap: give it with --redis (a file has no cap)")
  }
  // A file has no cap: only a stream's missing start may be explained by one.
  const cap = files.length > 0 ? undefined : capSetting(values.maxlen, env.AUDIT_STREAM_MAXLEN)
  if (typeof cap === 'string') return usage(cap)

  let trail: { records: unknown[]; head?: ChainHead; cap?: StreamCap; source: string }
  try {
    if (cap === undefined) {
      const records = (await Promise.all(files.map(readAuditFile))).flat()
      trail = { records, source: files.join(', ') }
    } else {
      const { length, ...read } = await fromRedis(values.redis!, values.prefix)
      trail = {
        ...read,
        cap: { maxLength: cap.maxLength, length },
        source: withoutPassword(values.redis!),
      }
    }
  } catch (error) {
    io.err.write(
      `a2a audit: cannot read the audit trail: ${error instanceof Error ? error.message : String(error)}\n`,
    )
    return 2
  }

  // Nothing to check is no verdict: a mistyped --prefix, the wrong file, or a trail wiped whole.
  if (trail.records.length === 0 && trail.head === undefined) {
    io.err.write(
      files.length > 0
        ? `a2a audit: ${trail.source} ${files.length === 1 ? 'holds' : 'hold'} no audit records\n`
        : `a2a audit: ${trail.source} holds no audit records under ${auditKeys(values.prefix).stream} ` +
            `(--prefix is the server's REDIS_KEY_PREFIX, its last ":" included)\n`,
    )
    return 2
  }

  const verdict = verifyChain(trail.records, {
    ...(trail.head && { head: trail.head }),
    ...(trail.cap && { cap: trail.cap }),
  })
  if (values.json) {
    io.out.write(`${JSON.stringify(verdict)}\n`)
  } else {
    const hint = cap === undefined ? ROTATION_HINT : cap.assumed ? DEFAULT_CAP_HINT : undefined
    io.out.write(describe(verdict, trail.source, hint))
  }
  // A trail that lost records is no trail to vouch for, even if what is left chains.
  return verdict.ok && verdict.lost === undefined ? 0 : 1
}

const ROTATION_HINT =
  'a rotated file continues the one before it: give the files oldest first ' +
  '(a2a audit verify audit.jsonl.1 audit.jsonl)'

const DEFAULT_CAP_HINT =
  `the cap is AUDIT_STREAM_MAXLEN's default, ${DEFAULT_MAXLEN}: if the server's is lower, ` +
  'give it with --maxlen'

/**
 * The cap to check a stream against: --maxlen, else AUDIT_STREAM_MAXLEN, else the server's
 * default (`assumed`); a string says what is wrong with the value given.
 */
function capSetting(
  option: string | undefined,
  setting: string | undefined,
): { maxLength: number; assumed: boolean } | string {
  const [name, value] =
    option !== undefined ? ['--maxlen', option] : ['AUDIT_STREAM_MAXLEN', setting]
  if (value === undefined || value === '') return { maxLength: DEFAULT_MAXLEN, assumed: true }
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
    return `${name} must be a whole number of records (0: the stream is not capped), not "${value}"`
  }
  return { maxLength: Number(value), assumed: false }
}

/** What is wrong with the URL given to --redis, if anything (before a connection is tried). */
function redisUrlProblem(url: string): string | undefined {
  if (!URL.canParse(url) || !['redis:', 'rediss:'].includes(new URL(url).protocol)) {
    return 'must be a URL starting with redis:// or rediss://'
  }
  return databaseProblem(url)
}

async function fromRedis(url: string, prefix: string) {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 2000,
    retryStrategy: () => null,
  })
  // A failed connection rejects with "Connection is closed."; the error said why.
  let refusal: Error | undefined
  redis.on('error', (error: Error) => (refusal ??= error))
  try {
    await redis.connect()
    return await readAuditStream(redis, prefix)
  } catch (error) {
    throw refusal ?? error
  } finally {
    redis.disconnect()
  }
}

/** The verdict for a person; `hint` follows a trail broken at its start. */
function describe(verdict: Verdict, source: string, hint?: string): string {
  if (!verdict.ok) {
    const atStart = verdict.reason === 'missing' && verdict.index === 0 && verdict.count > 0
    return (
      `BROKEN: ${source}: ${verdict.message}\n` +
      `  reason: ${verdict.reason}; at record ${verdict.index + 1} of ${verdict.count}\n` +
      (atStart && hint !== undefined ? `  ${hint}\n` : '')
    )
  }
  const from = verdict.firstSeq === 1 ? 'from the first record' : `from seq ${verdict.firstSeq}`
  const notKept =
    verdict.cap === undefined
      ? ''
      : `  records before seq ${verdict.firstSeq} are not kept (the cap is ${verdict.cap})\n`
  const dropped =
    verdict.dropped === undefined
      ? ''
      : `  but ${verdict.dropped} record${verdict.dropped === 1 ? ' was' : 's were'} dropped before they were written (the server's audit queue was full): see its records-dropped records\n`
  const cut =
    verdict.cutLines === undefined
      ? ''
      : `  line${verdict.cutLines.length === 1 ? '' : 's'} ${verdict.cutLines.join(', ')}: a record cut short by a crash while it was written, never part of the chain (the next record chains to the one before)\n`
  const lost = (verdict.lost ?? [])
    .map(
      ({ seq, after }) =>
        `  at seq ${seq} the trail started again: the records before it, up to the server's seq ${after.seq} (hash ${after.hash}), were deleted, or lost with Redis' data\n`,
    )
    .join('')
  const records = verdict.count - (verdict.cutLines?.length ?? 0)
  if (verdict.last === undefined) return `ok: ${source}: no whole record\n${cut}`
  const intact = `${records} record${records === 1 ? '' : 's'}, chain intact ${from} to seq ${verdict.last.seq}`
  return (
    `${lost ? 'LOST' : 'ok'}: ${source}: ${intact}${lost ? ', but records before were lost' : ''}\n` +
    `${notKept}  last hash: ${verdict.last.hash}\n${dropped}${cut}${lost}`
  )
}
