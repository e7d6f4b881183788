/**
 * `a2a audit verify`: checks an audit trail's hash chain, from a file (AUDIT_SINK=file, or
 * stdout captured to a file) or from the Redis stream (AUDIT_SINK=redis).
 *
 *   a2a audit verify <path> | --file <path>         [--json]
 *   a2a audit verify --redis <url> [--prefix <p>]   [--json]
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
import type { Verdict } from '../../audit/verify.js'
import { verifyChain } from '../../audit/verify.js'
import { withoutPassword } from '../../domain/url-password.js'
import { databaseProblem } from '../../store/redis/database.js'

export const summary = "check the audit trail's hash chain"

export const USAGE = `Usage:
  a2a audit verify <path> [--json]          (or --file <path>)
  a2a audit verify --redis <url> [--prefix <prefix>] [--json]

Checks the audit trail's hash chain. Exit 0: intact; 1: broken; 2: usage or read error, or
no audit record found.
--prefix is the server's REDIS_KEY_PREFIX (default a2a:).
`

export interface Io {
  out: Pick<Writable, 'write'>
  err: Pick<Writable, 'write'>
}

export async function run(
  argv: string[],
  io: Io = { out: process.stdout, err: process.stderr },
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
        file: { type: 'string' },
        redis: { type: 'string' },
        prefix: { type: 'string', default: 'a2a:' },
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
  const [command, path, ...extra] = positionals
  if (command !== 'verify') return usage(`unknown audit command: ${command ?? '(none)'}`)
  if (extra.length > 0) return usage(`unexpected arguments: ${extra.join(' ')}`)
  if (path !== undefined && values.file !== undefined) {
    return usage('give the file once: as a path or with --file')
  }
  const file = values.file ?? path
  if ((file === undefined) === (values.redis === undefined)) {
    return usage('give exactly one of a file (a path, or --file) or --redis')
  }
  const redisProblem = values.redis === undefined ? undefined : redisUrlProblem(values.redis)
  if (redisProblem) return usage(`--redis ${redisProblem}`)

  let trail: { records: unknown[]; head?: ChainHead; source: string }
  try {
    trail = file
      ? { records: await readAuditFile(file), source: file }
      : {
          ...(await fromRedis(values.redis!, values.prefix)),
          source: withoutPassword(values.redis!),
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
      file
        ? `a2a audit: ${file} holds no audit records\n`
        : `a2a audit: ${trail.source} holds no audit records under ${auditKeys(values.prefix).stream} ` +
            `(--prefix is the server's REDIS_KEY_PREFIX, its last ":" included)\n`,
    )
    return 2
  }

  const verdict = verifyChain(trail.records, { ...(trail.head && { head: trail.head }) })
  io.out.write(values.json ? `${JSON.stringify(verdict)}\n` : describe(verdict, trail.source))
  return verdict.ok ? 0 : 1
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

function describe(verdict: Verdict, source: string): string {
  if (!verdict.ok) {
    return (
      `BROKEN: ${source}: ${verdict.message}\n` +
      `  reason: ${verdict.reason}; at record ${verdict.index + 1} of ${verdict.count}\n`
    )
  }
  const from =
    verdict.firstSeq === 1
      ? 'from the first record'
      : `from seq ${verdict.firstSeq} (older records were dropped by the cap)`
  const dropped =
    verdict.dropped === undefined
      ? ''
      : `  but ${verdict.dropped} record${verdict.dropped === 1 ? ' was' : 's were'} dropped before they were written (the server's audit queue was full): see its records-dropped records\n`
  return (
    `ok: ${source}: ${verdict.count} records, chain intact ${from} to seq ${verdict.last!.seq}\n` +
    `  last hash: ${verdict.last!.hash}\n${dropped}`
  )
}
