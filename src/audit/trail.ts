/**
 * The audit trail of this process: `record()` queues an entry and returns at once; a single
 * writer hands queued entries to the sink in order, in batches. A request never waits for the
 * sink and never fails because of it: a failed write is logged, counted and retried (with a
 * capped backoff) while new entries queue behind it, up to `queueMax`; entries beyond that are
 * dropped and counted. `close()` flushes what is queued, for at most `flushTimeoutMs`.
 */
import type { Logger } from 'pino'
import type { AuditEntry } from './record.js'
import { AuditEvent } from './record.js'
import type { AuditSink } from './sink.js'

export interface AuditTrailOptions {
  /** The most entries waiting for the sink; more are dropped (and counted). */
  queueMax: number
  /** The most entries handed to the sink in one write. */
  batchMax?: number
}

export interface AuditStats {
  /** Records the sink has stored. */
  written: number
  /** Writes that failed (each is retried). */
  failures: number
  /** Entries lost because the queue was full. */
  dropped: number
  /** Entries waiting for the sink right now. */
  queued: number
}

const RETRY_MIN_MS = 100
const RETRY_MAX_MS = 5000

export class AuditTrail {
  readonly #queue: AuditEntry[] = []
  readonly #stats = { written: 0, failures: 0, dropped: 0 }
  /** Entries dropped since the last one queued: the next one queued says so first. */
  #droppedSinceLast = 0
  readonly #batchMax: number
  #writing: Promise<void> | undefined
  #retryTimer: NodeJS.Timeout | undefined
  #wakeRetry: (() => void) | undefined
  #closed = false
  #failing = false

  constructor(
    private readonly sink: AuditSink | undefined,
    private readonly log: Logger,
    private readonly options: AuditTrailOptions,
  ) {
    this.#batchMax = options.batchMax ?? 100
  }

  /** No sink (AUDIT_SINK=off): `record` does nothing. */
  get enabled(): boolean {
    return this.sink !== undefined
  }

  /**
   * Queues `entry` for the sink; never throws, never waits. Past `queueMax` it is dropped, and
   * the next entry that finds room is preceded by a `records-dropped` record saying how many.
   */
  record(entry: AuditEntry): void {
    if (this.sink === undefined || this.#closed) return
    if (this.#queue.length >= this.options.queueMax) {
      this.#droppedSinceLast += 1
      if (this.#stats.dropped++ === 0 || this.#stats.dropped % 1000 === 0) {
        this.log.error(
          { trail: { dropped: this.#stats.dropped, queueMax: this.options.queueMax } },
          'audit queue is full: records are being dropped',
        )
      }
      return
    }
    if (this.#droppedSinceLast > 0) {
      // The marker takes a place of its own: the queue may hold one more than its maximum.
      this.#queue.push({
        time: entry.time,
        event: AuditEvent.recordsDropped,
        outcome: 'dropped',
        details: { count: this.#droppedSinceLast },
      })
      this.#droppedSinceLast = 0
    }
    this.#queue.push(entry)
    this.#writing ??= this.#write().finally(() => (this.#writing = undefined))
  }

  stats(): AuditStats {
    return { ...this.#stats, queued: this.#queue.length }
  }

  /** Resolves once every entry queued so far is stored, or `timeoutMs` has passed (→ false). */
  async flush(timeoutMs: number): Promise<boolean> {
    if (!this.#writing) return true
    this.#wakeRetry?.()
    let timer: NodeJS.Timeout | undefined
    const timeUp = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs)
    })
    const done = this.#writing.then(() => true)
    return Promise.race([done, timeUp]).finally(() => clearTimeout(timer))
  }

  /** Flushes (within `timeoutMs`), then closes the sink; later records are ignored. */
  async close(timeoutMs: number): Promise<void> {
    if (this.sink === undefined || this.#closed) return
    const flushed = await this.flush(timeoutMs)
    this.#closed = true
    if (!flushed) {
      this.log.error(
        { trail: this.stats() },
        `audit records not written at shutdown: ${this.#queue.length}`,
      )
    }
    this.#queue.length = 0
    this.#wakeRetry?.()
    await this.sink.close().catch((error: unknown) => {
      this.log.warn({ err: error }, 'closing the audit sink failed')
    })
  }

  async #write(): Promise<void> {
    const sink = this.sink!
    // Records made in this turn of the event loop, by every request it serves, go to the sink
    // in one write (stdout to a file, for one, writes synchronously: one syscall per write).
    await new Promise<void>((resolve) => setImmediate(resolve))
    let attempt = 0
    while (this.#queue.length > 0 && !this.#closed) {
      const batch = this.#queue.slice(0, this.#batchMax)
      try {
        await sink.append(batch)
      } catch (error) {
        this.#stats.failures += 1
        if (!this.#failing) {
          this.#failing = true
          this.log.warn(
            { err: error, trail: { sink: sink.name, queued: this.#queue.length } },
            'audit sink write failed; records queue until it recovers',
          )
        }
        await this.#pause(Math.min(RETRY_MIN_MS * 2 ** attempt++, RETRY_MAX_MS))
        continue
      }
      if (this.#failing) {
        this.#failing = false
        this.log.info({ trail: { sink: sink.name } }, 'audit sink recovered')
      }
      attempt = 0
      this.#stats.written += batch.length
      this.#queue.splice(0, batch.length)
    }
  }

  #pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.#wakeRetry = () => {
        clearTimeout(this.#retryTimer)
        this.#wakeRetry = undefined
        resolve()
      }
      this.#retryTimer = setTimeout(() => this.#wakeRetry?.(), ms).unref()
    })
  }
}
