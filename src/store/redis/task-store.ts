/**
 * The Redis TaskStore. A task's change and its event are one Lua script on the task's slot
 * (create.lua, apply.lua); the list indexes follow in a second, idempotent step (task-index.ts).
 */
import type { Redis } from 'ioredis'
import type { StoredEvent, TaskChange, TaskEvent } from '../../domain/events.js'
import type { Task, TaskState } from '../../domain/model.js'
import { INTERRUPTED_STATES, isFinal, isTerminal } from '../../domain/state-machine.js'
import { pageOf } from '../task-query.js'
import type { AppliedChanges, TaskPage, TaskQuery, TaskStore } from '../task-store.js'
import { TransitionRejectedError } from '../task-store.js'
import { whileReachable } from './connection.js'
import { taskKeys } from './keys.js'
import type { TaskScripts } from './scripts.js'
import { applyReply, createReply, hashFields } from './scripts.js'
import { contextIdOf, decodeTask, encodeTask, prepareChange } from './task-codec.js'
import type { IndexEntry } from './task-index.js'
import { TaskIndex } from './task-index.js'

export interface RedisTaskStoreOptions {
  redis: Redis
  prefix: string
  /** How long a terminal task and its events are kept; 0 keeps them forever. */
  terminalTtlSeconds: number
  scripts: TaskScripts
  /** Told when an index write failed (it is repaired later; see #indexBehind). */
  onIndexError?: (error: unknown, taskId: string) => void
}

export class RedisTaskStore implements TaskStore {
  readonly #redis: Redis
  readonly #prefix: string
  readonly #ttl: number
  readonly #scripts: TaskScripts
  readonly #index: TaskIndex
  readonly #behind = new Set<Promise<void>>()
  readonly #onIndexError: (error: unknown, taskId: string) => void

  constructor({ redis, prefix, terminalTtlSeconds, scripts, onIndexError }: RedisTaskStoreOptions) {
    this.#onIndexError = onIndexError ?? (() => undefined)
    this.#redis = redis
    this.#prefix = prefix
    this.#ttl = terminalTtlSeconds
    this.#scripts = scripts
    this.#index = new TaskIndex(redis, prefix, scripts)
  }

  create(task: Task, first: TaskEvent): Promise<{ task: Task; created: boolean }> {
    return whileReachable(() => this.#create(task, first))
  }

  get(taskId: string): Promise<Task | undefined> {
    return whileReachable(() => this.#get(taskId))
  }

  async apply(taskId: string, change: TaskChange): Promise<{ task: Task; event: StoredEvent }> {
    const { events, refusedBy, task } = await this.applyAll(taskId, [change])
    const event = events[0]
    if (event === undefined) throw new TransitionRejectedError(taskId, refusedBy[0]!, change.kind)
    return { task, event }
  }

  applyAll(
    taskId: string,
    changes: readonly TaskChange[],
  ): Promise<AppliedChanges & { refusedBy: (TaskState | undefined)[] }> {
    return whileReachable(() => this.#applyAll(taskId, changes))
  }

  list(query: TaskQuery): Promise<TaskPage> {
    return whileReachable(() => this.#list(query))
  }

  /** Just the task's state (one HGET): cheaper than `get` for a caller that needs no more. */
  stateOf(taskId: string): Promise<TaskState | undefined> {
    return whileReachable(async () => {
      const state = await this.#redis.hget(taskKeys(this.#prefix, taskId).task, 'state')
      return state === null ? undefined : (state as TaskState)
    })
  }

  overdueWaits(startedBefore: number, limit: number): Promise<string[]> {
    return whileReachable(async () => {
      const entries = await this.#index.waitingSince(startedBefore, limit)
      const { tasks, gone } = await this.#load(entries)
      const entryOf = new Map(entries.map((entry) => [entry.taskId, entry]))
      // Answered since (its entry is written again when it next waits, or removed at its end),
      // or expired: stale entries, dropped together.
      const stale = [...gone]
      const overdue: string[] = []
      for (const task of tasks) {
        const { state, timestamp } = task.status
        if (!INTERRUPTED_STATES.includes(state)) stale.push(entryOf.get(task.id)!)
        else if (Date.parse(timestamp) <= startedBefore) overdue.push(task.id)
      }
      await Promise.all(stale.map((entry) => this.#index.forgetWait(entry)))
      return overdue
    })
  }

  /** Removes the index entries of expired tasks; see task-index.ts. Returns how many tasks. */
  sweep(limit = 100): Promise<number> {
    return whileReachable(() => this.#index.sweep(limit, this.#ttl * 1000))
  }

  async #create(task: Task, first: TaskEvent): Promise<{ task: Task; created: boolean }> {
    const { task: key, events } = taskKeys(this.#prefix, task.id)
    const ttl = isTerminal(task.status.state) ? this.#ttl : 0
    const reply = createReply(
      await this.#scripts.create(
        [key, events],
        [JSON.stringify(first), String(ttl), ...encodeTask(task)],
      ),
    )
    // Redis holds its own copy now: the caller's object is handed back as it is.
    const stored = reply.created ? task : decodeTask(task.id, reply.fields)
    // Also when the id was taken: it repairs an index step that a crash after create.lua lost.
    this.#indexBehind(stored)
    return { task: stored, created: reply.created }
  }

  /**
   * Records the task in the indexes without holding up the write that called for it: the task
   * is stored, the index writes of this turn of the event loop go in one call right after it
   * (TaskIndex.record), and a list on this process waits for a batch not yet sent: this
   * process lists every task it has written; only another process may list a moment before the
   * entry lands. A step that fails is repaired as keys.ts says (the next final state, the
   * sweep), and logged.
   */
  #indexBehind(task: Task): void {
    const written = this.#index
      .record(task, this.#sweepAt())
      .catch((error: unknown) => this.#onIndexError(error, task.id))
      .finally(() => this.#behind.delete(written))
    this.#behind.add(written)
  }

  /** Resolves once the index writes in flight have landed (or failed). */
  async settled(): Promise<void> {
    await Promise.all(this.#behind)
  }

  async #get(taskId: string): Promise<Task | undefined> {
    // The flat reply (not ioredis's object): hashFields makes it a Map (see there).
    const flat = await this.#redis.call('HGETALL', taskKeys(this.#prefix, taskId).task)
    const fields = hashFields('HGETALL', flat)
    return fields.size === 0 ? undefined : decodeTask(taskId, fields)
  }

  async #applyAll(taskId: string, changes: readonly TaskChange[]) {
    const { task: key, events } = taskKeys(this.#prefix, taskId)
    const prepared = changes.map((change) => prepareChange(taskId, change, this.#ttl))
    const reply = applyReply(
      await this.#scripts.apply(
        [key, events],
        [String(changes.length), ...prepared.flatMap((change) => change.args)],
      ),
      taskId,
    )
    // Decoded on first read: most callers of the frequent writes (progress, artifacts) never
    // look at the task they get back.
    let task: Task | undefined
    const decoded = () => (task ??= decodeTask(taskId, reply.fields))
    // The changes are stored once apply.lua returns; if this step fails, the task's next final
    // state (or sweep, for an expiring task) brings the indexes back in line. Only a move to a
    // final state touches the indexes (its score, and the retention record of an ended task):
    // membership is fixed at create, and `list` orders by the task hashes' own updatedAt, so
    // the frequent writes (working, progress, artifacts) cost no second step.
    const reachedFinal = changes.some(
      (change, i) =>
        change.kind === 'status' && isFinal(change.status.state) && 'eventId' in reply.outcomes[i]!,
    )
    if (reachedFinal) this.#indexBehind(decoded())
    const contextId = contextIdOf(taskId, reply.fields)
    return {
      get task() {
        return decoded()
      },
      events: reply.outcomes.map((outcome, i): StoredEvent | undefined =>
        'eventId' in outcome
          ? { id: outcome.eventId, event: { ...prepared[i]!.event, contextId } }
          : undefined,
      ),
      refusedBy: reply.outcomes.map((outcome) =>
        'refusedBy' in outcome ? outcome.refusedBy : undefined,
      ),
    }
  }

  async #list(query: TaskQuery): Promise<TaskPage> {
    const key = this.#index.keyFor(query)
    const { tasks, gone } = await this.#load(await this.#index.entries(key))
    if (gone.length > 0) await this.#index.forget(key, gone)
    return pageOf(tasks, query)
  }

  /** The tasks of some index entries, and the entries whose task is gone (expired). */
  async #load(entries: readonly IndexEntry[]): Promise<{ tasks: Task[]; gone: IndexEntry[] }> {
    const tasks: Task[] = []
    const gone: IndexEntry[] = []
    if (entries.length === 0) return { tasks, gone }
    const pipeline = this.#redis.pipeline()
    for (const { taskId } of entries) pipeline.call('HGETALL', taskKeys(this.#prefix, taskId).task)
    const replies = (await pipeline.exec()) ?? []
    for (const [i, [error, flat]] of replies.entries()) {
      if (error) throw error
      const entry = entries[i]!
      const fields = hashFields('HGETALL', flat)
      if (fields.size === 0) gone.push(entry)
      else tasks.push(decodeTask(entry.taskId, fields))
    }
    return { tasks, gone }
  }

  /**
   * When sweep should look at the task (task-index.ts), with retention on: a terminal task's
   * keys expire then; an open task's look comes around once per retention period, so that its
   * entries are swept even if the process dies between its final write and that write's index
   * step.
   */
  #sweepAt(): number | undefined {
    return this.#ttl > 0 ? Date.now() + this.#ttl * 1000 : undefined
  }
}
