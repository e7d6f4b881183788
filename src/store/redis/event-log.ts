/**
 * The Redis EventLog: each task's events are a Redis Stream, written only by create.lua and
 * apply.lua. Stream entry ids (`<ms>-<seq>`) are the event ids, so an SSE `Last-Event-ID` is a
 * stream position and resuming is an exclusive XRANGE/XREAD from it.
 */
import type { Redis } from 'ioredis'
import { InvalidRequestError } from '../../domain/errors.js'
import type { StoredEvent, TaskEvent } from '../../domain/events.js'
import type { EventLog } from '../event-log.js'
import { redisUnavailable, storeUnavailable, whileReachable } from './connection.js'
import { FollowerPool } from './follower-pool.js'
import { taskKeys } from './keys.js'
import { StoredDataError } from './task-codec.js'

type StreamEntry = [id: string, fields: string[]]

export class RedisEventLog implements EventLog {
  /** Connections for blocking reads: a blocked connection serves nobody else. */
  readonly #followers: FollowerPool
  #closed = false

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    this.#followers = new FollowerPool(redis)
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
    let cursor = after === undefined ? '0-0' : checkedId(after)
    if (signal.aborted || this.#closed) return
    const key = this.#key(taskId)
    const follower = await whileReachable(() => this.#followers.acquire())
    // CLIENT UNBLOCK ends a pending XREAD at once, so the loop ends as soon as the signal aborts.
    const stop = () => this.#followers.interrupt(follower)
    signal.addEventListener('abort', stop, { once: true })
    let broken = false
    try {
      while (!signal.aborted && !this.#closed) {
        let reply: unknown
        follower.blocked = true
        try {
          reply = await follower.connection.xread('COUNT', 100, 'BLOCK', 0, 'STREAMS', key, cursor)
        } catch (error) {
          broken = true
          if (signal.aborted || this.#closed) return
          throw redisUnavailable(error) ? storeUnavailable(error) : error
        } finally {
          follower.blocked = false
        }
        for (const entry of streamEntries(reply, key)) {
          yield storedEvent(taskId, entry)
          cursor = entry[0]
        }
      }
    } finally {
      signal.removeEventListener('abort', stop)
      this.#followers.release(follower, broken)
    }
  }

  /** Ends every follower and closes the connections this log opened. */
  async close(): Promise<void> {
    this.#closed = true
    this.#followers.close()
  }

  #key(taskId: string): string {
    return taskKeys(this.prefix, taskId).events
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

/** One stream's entries from an XREAD reply, whether mapped as RESP2 (array) or RESP3 (object). */
function streamEntries(reply: unknown, key: string): StreamEntry[] {
  if (reply === null || reply === undefined) return []
  if (Array.isArray(reply)) {
    const stream = (reply as [string, StreamEntry[]][]).find(([name]) => name === key)
    return stream?.[1] ?? []
  }
  if (reply instanceof Map) return (reply.get(key) as StreamEntry[] | undefined) ?? []
  return (reply as Record<string, StreamEntry[]>)[key] ?? []
}
