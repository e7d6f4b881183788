/**
 * The list indexes and retention records (keys.ts explains the layout, and why index writes are
 * a second atomic step after the task's own).
 *
 * Retention: while `terminalTtlSeconds` > 0, every index write of a task (at create, and when it
 * ends) also writes its retention record: the task and its indexes, scored by when sweep should
 * look at it. When the task ends, apply.lua sets EXPIRE on its hash and stream, and the record's
 * score becomes that expiry. Redis drops the task keys on time; its index entries go two ways, so
 * that none accumulate: `list` removes the dangling entries it meets in the index it reads, and
 * `sweep` takes the records whose time has come and removes the tasks that are gone from every
 * index, then the record. A task still there is looked at again when its keys expire, or, while
 * it is open, a retention period later. Since the record is written at create, a process that
 * dies between a task's final write and that write's index step leaves no entry behind for good.
 */
import type { Redis } from 'ioredis'
import type { Task } from '../../domain/model.js'
import { INTERRUPTED_STATES, isTerminal } from '../../domain/state-machine.js'
import type { TaskQuery } from '../task-store.js'
import { indexKeys, taskKeys } from './keys.js'
import type { TaskScripts } from './scripts.js'
import { TurnBatch } from './turn-batch.js'

/** An index entry: a task id and the updatedAt (ms) it was indexed with. */
export interface IndexEntry {
  taskId: string
  score: number
}

/**
 * [taskId, contextId, owner or null]: enough to find the task's index entries. (Records written
 * before the look time became the score carry the expiry as a fourth element; sweep reads both.)
 */
type RetentionRecord = [string, string, string | null, number?]

/** One task's index write, as index.lua takes it ('' for no record: retention is off). */
interface IndexWrite {
  taskId: string
  score: string
  indexes: string[]
  sweepAt: string
  record: string
  /** Since when it waits on its caller (ms), '-' once it has ended, '' otherwise. */
  wait: string
}

export class TaskIndex {
  readonly #keys: ReturnType<typeof indexKeys>
  readonly #recorded = new TurnBatch<IndexWrite>((tasks) => this.#writeEntries(tasks))

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly scripts: TaskScripts,
  ) {
    this.#keys = indexKeys(prefix)
  }

  /**
   * Records a task's entries (again: it is idempotent), and its retention record scored
   * `sweepAt` (ms) when retention is on. The tasks recorded in one turn of the event loop go to
   * Redis in one index.lua call, after the turn (turn-batch.ts): resolves (or rejects, for all
   * of them) once that call has answered.
   */
  record(task: Task, sweepAt?: number): Promise<void> {
    const owner = task.owner ?? null
    const record: RetentionRecord = [task.id, task.contextId, owner]
    return this.#recorded.add({
      taskId: task.id,
      score: String(scoreOf(task)),
      indexes: this.#indexesOf(task.contextId, owner),
      sweepAt: sweepAt === undefined ? '' : String(sweepAt),
      record: sweepAt === undefined ? '' : JSON.stringify(record),
      wait: waitOf(task),
    })
  }

  #writeEntries(writes: readonly IndexWrite[]): Promise<unknown> {
    const keys = [this.#keys.expiring, this.#keys.waiting]
    const args: string[] = []
    for (const { taskId, score, indexes, sweepAt, record, wait } of writes) {
      keys.push(...indexes)
      args.push(taskId, score, String(indexes.length), sweepAt, record, wait)
    }
    return this.scripts.index(keys, args)
  }

  /**
   * Ids of tasks recorded as waiting on their caller since `startedBefore` (ms) or earlier,
   * oldest first. Entries are written with the task's final states only, so one may be stale:
   * `forgetWait` drops an entry whose task has moved on.
   */
  async waitingSince(startedBefore: number, limit: number): Promise<IndexEntry[]> {
    await this.#recorded.sent()
    const reply: unknown = await this.redis.zrangebyscore(
      this.#keys.waiting,
      '-inf',
      startedBefore,
      'WITHSCORES',
      'LIMIT',
      0,
      limit,
    )
    return scoredMembers(reply).map(([taskId, score]) => ({ taskId, score }))
  }

  /** Drops a stale wait entry, unless a newer wait of the task replaced it meanwhile. */
  async forgetWait({ taskId, score }: IndexEntry): Promise<void> {
    await this.scripts.unindex([this.#keys.waiting], [taskId, String(score)])
  }

  /** The index that narrows a query most: a context is one conversation, an owner has many. */
  keyFor(query: Pick<TaskQuery, 'owner' | 'contextId'>): string {
    if (query.contextId !== undefined) return this.#keys.context(query.contextId)
    if (query.owner !== undefined) return this.#keys.owner(query.owner)
    return this.#keys.all
  }

  /**
   * Every entry of one index. Loading a whole index is the simple, correct first version; at
   * scale `list` would range by score with the page cursor instead (ZRANGE BYSCORE … LIMIT).
   */
  async entries(key: string): Promise<IndexEntry[]> {
    // A batch still to be sent goes first: a list sees every task this process has written.
    await this.#recorded.sent()
    const reply: unknown = await this.redis.zrange(key, 0, '-1', 'WITHSCORES')
    return scoredMembers(reply).map(([taskId, score]) => ({ taskId, score }))
  }

  /** Removes entries whose task `list` found gone, unless a newer task took the id since. */
  async forget(key: string, entries: readonly IndexEntry[]): Promise<void> {
    await Promise.all(
      entries.map(({ taskId, score }) => this.scripts.unindex([key], [taskId, String(score)])),
    )
  }

  /**
   * Removes the tasks that are gone from every index, `limit` due retention records at a time;
   * returns how many tasks it removed. Meant to run periodically on any one replica (it is
   * idempotent). `lookAgainMs`: when to look again at a task that has no expiry (still open).
   */
  async sweep(limit: number, lookAgainMs: number): Promise<number> {
    const members = await this.redis.zrangebyscore(
      this.#keys.expiring,
      '-inf',
      Date.now(),
      'LIMIT',
      0,
      limit,
    )
    if (members.length === 0) return 0
    // Entries no newer than this belong to a task found gone: one created since, with the same
    // id (a client may reuse one), has newer entries, and keeps them.
    const seenAt = Date.now()
    const records = members.map((member) => JSON.parse(member) as RetentionRecord)
    const ttls = records.map(([taskId]) => this.redis.pttl(taskKeys(this.prefix, taskId).task))
    let removed = 0
    for (const [i, ttl] of (await Promise.all(ttls)).entries()) {
      const [taskId, contextId, owner] = records[i]!
      const member = members[i]!
      if (ttl === -2) {
        await this.scripts.unindex(this.#indexesOf(contextId, owner), [taskId, String(seenAt)])
        await this.redis.zrem(this.#keys.expiring, member)
        removed++
      } else {
        // Still there: when its keys expire (≥ 0), or later while it has none (-1, open).
        const lookAt = seenAt + (ttl >= 0 ? ttl : lookAgainMs)
        await this.redis.zadd(this.#keys.expiring, 'XX', lookAt, member)
      }
    }
    return removed
  }

  #indexesOf(contextId: string, owner: string | null): string[] {
    const keys = [this.#keys.all, this.#keys.context(contextId)]
    if (owner !== null) keys.push(this.#keys.owner(owner))
    return keys
  }
}

/** What index.lua does with the task's wait entry (see IndexWrite.wait). */
function waitOf(task: Task): string {
  const { state, timestamp } = task.status
  if (INTERRUPTED_STATES.includes(state)) return String(Date.parse(timestamp))
  return isTerminal(state) ? '-' : ''
}

const scoreOf = (task: Task): number => {
  const ms = Date.parse(task.updatedAt)
  return Number.isFinite(ms) ? ms : 0
}

/** ZRANGE WITHSCORES as pairs, whether the connection maps replies as RESP2 or RESP3. */
function scoredMembers(reply: unknown): [string, number][] {
  const items = Array.isArray(reply) ? (reply as unknown[]) : []
  if (Array.isArray(items[0])) {
    return (items as [unknown, unknown][]).map(([member, score]) => [String(member), Number(score)])
  }
  const pairs: [string, number][] = []
  for (let i = 0; i + 1 < items.length; i += 2) pairs.push([String(items[i]), Number(items[i + 1])])
  return pairs
}
