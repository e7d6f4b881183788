/**
 * Audit records on a capped Redis stream shared by every process of the deployment. Each
 * append is one script call (audit-append.lua) that writes only if the batch continues the
 * stored head; otherwise it answers the fresh head and the batch is re-chained and sent again.
 * Capping drops the oldest records, so the stream's first record may have seq > 1.
 *
 * A head behind the last record this process wrote means the trail was deleted, or Redis lost
 * its data: the sink logs it, and the chain goes on from the stored head with a `trail-lost`
 * record naming the last record it had written, so the trail itself shows the loss.
 */
import { readFileSync } from 'node:fs'
import type { Redis } from 'ioredis'
import type { Logger } from 'pino'
import { now } from '../../domain/model.js'
import { chain } from '../hash.js'
import { auditKeys } from '../keys.js'
import type { AuditEntry, ChainHead } from '../record.js'
import { AuditEvent, EMPTY_HEAD } from '../record.js'
import type { AuditSink } from '../sink.js'
import { redisFailure } from '../../store/redis/connection.js'

const SCRIPT = 'a2aAuditAppendV1'
// The build copies src/store/redis/lua/ to dist/store/redis/lua/ (package.json `build`).
const source = () =>
  readFileSync(new URL('../../store/redis/lua/audit-append.lua', import.meta.url), 'utf8')

type AppendCommand = (this: Redis, ...args: (string | number)[]) => Promise<unknown>

export interface RedisAuditSinkOptions {
  /** The sink's own connection; closed by `close()`. */
  redis: Redis
  prefix: string
  /** XADD MAXLEN ~ this; 0 for no cap. */
  maxLength: number
  log: Logger
}

export class RedisAuditSink implements AuditSink {
  readonly name = 'redis'
  readonly keys: ReturnType<typeof auditKeys>
  /** Where this process believes the head is; corrected by the script when stale. */
  #head: ChainHead = EMPTY_HEAD
  /** The last record of a write whose reply was lost, and how many records it held. */
  #unconfirmed: { hash: string; count: number } | undefined

  constructor(private readonly options: RedisAuditSinkOptions) {
    this.keys = auditKeys(options.prefix)
    options.redis.defineCommand(SCRIPT, { numberOfKeys: 2, lua: source() })
  }

  async open(): Promise<void> {}

  async append(batch: readonly AuditEntry[]): Promise<void> {
    const { redis, maxLength } = this.options
    const command = (redis as unknown as Record<string, AppendCommand>)[SCRIPT]!
    let entries = batch
    for (;;) {
      const records = chain(entries, this.#head)
      const last = records[records.length - 1]
      if (!last) return
      let reply: unknown
      try {
        reply = await command.call(
          redis,
          this.keys.head,
          this.keys.stream,
          this.#head.hash,
          maxLength,
          last.seq,
          last.hash,
          ...records.map(({ line }) => line),
        )
      } catch (error) {
        // The script may have run with its reply lost; the retry's answer will tell.
        this.#unconfirmed = { hash: last.hash, count: records.length }
        // An outage in plain words, not the Redis client's ("max retries per request…").
        throw redisFailure(error)
      }
      const [code, hash, seq] = Array.isArray(reply) ? (reply as unknown[]) : []
      if (code === 1) {
        this.#head = last
        this.#unconfirmed = undefined
        return
      }
      if (code !== 0 || typeof hash !== 'string') throw new Error(`${SCRIPT}: unexpected reply`)
      const stored = { hash, seq: Number(seq) }
      if (stored.seq < this.#head.seq) entries = [this.#lost(stored), ...entries]
      this.#head = stored
      // The retry of a lost reply: if the head is our last record, those entries are stored.
      const unconfirmed = this.#unconfirmed
      this.#unconfirmed = undefined
      if (unconfirmed?.hash === hash) entries = entries.slice(unconfirmed.count)
    }
  }

  /** The stored head went back to `stored`: says so, and makes the record that shows it. */
  #lost(stored: ChainHead): AuditEntry {
    const known = this.#head
    this.options.log.error(
      { trail: { key: this.keys.stream, lastWritten: known, stored } },
      `the audit trail in Redis went back from seq ${known.seq} to seq ${stored.seq}: its records were deleted, or Redis lost its data; ` +
        'the trail goes on, its next record (trail-lost) names the last one this process wrote',
    )
    return {
      time: now(),
      event: AuditEvent.trailLost,
      outcome: 'lost',
      details: { hash: known.hash, seq: known.seq },
    }
  }

  async close(): Promise<void> {
    await this.options.redis.quit().catch(() => this.options.redis.disconnect())
  }
}
