/**
 * The Redis EventLog: each task's events are a Redis Stream, written only by create.lua and
 * apply.lua. Stream entry ids (`<ms>-<seq>`) are the event ids, so an SSE `Last-Event-ID` is a
 * stream position and resuming is an exclusive XRANGE from it.
 *
 * A follower reads its stream on the command connection whenever the scripts say they appended
 * to it (event-feed.ts): every follower in the process shares one pub/sub connection, where a
 * blocking XREAD would hold a connection of its own for as long as its SSE stream is open.
 */
import type { Redis } from 'ioredis'
import { InvalidRequestError } from '../../domain/errors.js'
import type { StoredEvent, TaskEvent } from '../../domain/events.js'
import type { EventLog } from '../event-log.js'
import { connectionName, whileReachable } from './connection.js'
import { EventFeed } from './event-feed.js'
import { taskKeys } from './keys.js'
import { StoredDataError } from './task-codec.js'

type StreamEntry = [id: string, fields: string[]]

/** The most entries a follower reads at once; it reads again at once when it got as many. */
const FOLLOW_BATCH = 100

/**
 * A follower told of nothing reads again after this long anyway: a notice can be lost in ways
 * the feed cannot see (a process of an earlier version appends without publishing, during a
 * rolling upgrade), and a stream must never wait on a notice that will not come.
 */
export const FOLLOW_RECHECK_MS = 5000

export class RedisEventLog implements EventLog {
  readonly #feed: EventFeed
  #closed = false

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly options: { recheckMs: number } = { recheckMs: FOLLOW_RECHECK_MS },
  ) {
    this.#feed = new EventFeed(redis, connectionName(prefix, 'events'))
  }

  async read(taskId: string, after?: string): Promise<StoredEvent[]> {
    const start = after === undefined ? '-' : `(${checkedId(after)}`
    const entries = await whileReachable(() => this.redis.xrange(this.#key(taskId), start, '+'))
    return entries.map((entry) => storedEvent(taskId, entry))
  }

  async lastId(taskId: string): Promise<string | undefined> {
    const [newest] = await whileReachable(() =>
      this.redis.xrevrange(this.#key(taskId), '+', '-', 'COUNT', 1),
    )
    return newest?.[0]
  }

  async *follow(
    taskId: string,
    after: string | undefined,
    signal: AbortSignal,
  ): AsyncIterable<StoredEvent> {
    let start = after === undefined ? '-' : `(${checkedId(after)}`
    if (signal.aborted || this.#closed) return
    const key = this.#key(taskId)
    const notices = new Notices()
    // Watching first, reading next: an append after the watch is in place is told.
    const unwatch = await whileReachable(() => this.#feed.watch(key, notices.notify))
    signal.addEventListener('abort', notices.notify, { once: true })
    try {
      while (!signal.aborted && !this.#closed) {
        // A notice from here on, during the read, means that there may be more to read.
        notices.take()
        let entries: StreamEntry[]
        try {
          entries = await whileReachable(() =>
            this.redis.xrange(key, start, '+', 'COUNT', FOLLOW_BATCH),
          )
        } catch (error) {
          if (signal.aborted || this.#closed) return
          throw error
        }
        for (const entry of entries) {
          yield storedEvent(taskId, entry)
          start = `(${entry[0]}`
        }
        if (entries.length < FOLLOW_BATCH) await notices.next(this.options.recheckMs)
      }
    } finally {
      signal.removeEventListener('abort', notices.notify)
      unwatch()
    }
  }

  /** Ends every follower and closes the connection this log opened. */
  async close(): Promise<void> {
    this.#closed = true
    this.#feed.close()
  }

  #key(taskId: string): string {
    return taskKeys(this.prefix, taskId).events
  }
}

/**
 * A follower's notices: one that comes while the follower reads is kept, so it reads again
 * rather than wait for a notice that has already come.
 */
class Notices {
  #pending = false
  #wake: (() => void) | undefined

  readonly notify = (): void => {
    this.#pending = true
    const wake = this.#wake
    this.#wake = undefined
    wake?.()
  }

  /** Clears a pending notice. */
  take(): void {
    this.#pending = false
  }

  /** Resolves at the next notice (at once if one is pending), or after `recheckMs`. */
  next(recheckMs: number): Promise<void> {
    if (this.#pending) return Promise.resolve()
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, recheckMs)
      this.#wake = () => {
        clearTimeout(timer)
        resolve()
      }
    })
  }
}

function checkedId(after: string): string {
  if (!/^\d+-\d+$/.test(after)) {
    throw new InvalidRequestError(`"${after}" is not an event id of this server`, 'Last-Event-ID')
  }
  return after
}

function storedEvent(taskId: string, [id, fields]: StreamEntry): StoredEvent {
  const at = fields.indexOf('event')
  const text = at % 2 === 0 ? fields[at + 1] : undefined
  if (text !== undefined) {
    try {
      return { id, event: JSON.parse(text) as TaskEvent }
    } catch {
      // falls through to the error below
    }
  }
  throw new StoredDataError(taskId, `has an unreadable event ${id}`)
}
