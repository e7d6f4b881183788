/**
 * The Redis TaskStore. A task's change and its event are one Lua script on the task's slot
 * (create.lua, apply.lua); the list indexes follow in a second, idempotent step (task-index.ts).
 */
import type { Redis } from 'ioredis'
import type { StoredEvent, TaskChange, TaskEvent } from '../../domain/events.js'
import type { Task } from '../../domain/model.js'
import { isTerminal } from '../../domain/state-machine.js'
import { decodePageToken, encodePageToken, newestFirst } from '../page-token.js'
import type { TaskPage, TaskQuery, TaskStore } from '../task-store.js'
import { taskKeys } from './keys.js'
import type { TaskScripts } from './scripts.js'
import { applyReply, createReply } from './scripts.js'
import { decodeTask, encodeTask, prepareChange } from './task-codec.js'
import type { IndexEntry } from './task-index.js'
import { TaskIndex } from './task-index.js'

export interface RedisTaskStoreOptions {
  redis: Redis
  prefix: string
  /** How long a terminal task and its events are kept; 0 keeps them forever. */
  terminalTtlSeconds: number
  scripts: TaskScripts
}

export class RedisTaskStore implements TaskStore {
  readonly #redis: Redis
  readonly #prefix: string
  readonly #ttl: number
  readonly #scripts: TaskScripts
  readonly #index: TaskIndex

  constructor({ redis, prefix, terminalTtlSeconds, scripts }: RedisTaskStoreOptions) {
    this.#redis = redis
    this.#prefix = prefix
    this.#ttl = terminalTtlSeconds
    this.#scripts = scripts
    this.#index = new TaskIndex(redis, prefix, scripts)
  }

  async create(task: Task, first: TaskEvent): Promise<{ task: Task; created: boolean }> {
    const { task: key, events } = taskKeys(this.#prefix, task.id)
    const ttl = isTerminal(task.status.state) ? this.#ttl : 0
    const reply = createReply(
      await this.#scripts.create(
        [key, events],
        [JSON.stringify(first), String(ttl), ...encodeTask(task)],
      ),
    )
    const stored = reply.created ? structuredClone(task) : decodeTask(task.id, reply.fields)
    // Also when the id was taken: it repairs an index step that a crash after create.lua lost.
    await this.#index.record(stored, this.#expiresAt(stored))
    return { task: stored, created: reply.created }
  }

  async get(taskId: string): Promise<Task | undefined> {
    const fields = await this.#redis.hgetall(taskKeys(this.#prefix, taskId).task)
    return Object.keys(fields).length === 0 ? undefined : decodeTask(taskId, fields)
  }

  async apply(taskId: string, change: TaskChange): Promise<{ task: Task; event: StoredEvent }> {
    const { task: key, events } = taskKeys(this.#prefix, taskId)
    const prepared = prepareChange(taskId, change, this.#ttl)
    const reply = applyReply(
      await this.#scripts.apply([key, events], prepared.args),
      taskId,
      change.kind,
    )
    const task = decodeTask(taskId, reply.fields)
    // The change is stored once apply.lua returns; if this step fails, the task's next write
    // (or sweep, for an expiring task) brings the indexes back in line.
    await this.#index.record(task, this.#expiresAt(task))
    const event: TaskEvent = { ...prepared.event, contextId: task.contextId }
    return { task, event: { id: reply.eventId, event } }
  }

  async list(query: TaskQuery): Promise<TaskPage> {
    const after = query.pageToken === undefined ? undefined : decodePageToken(query.pageToken)
    const key = this.#index.keyFor(query)
    const { tasks, gone } = await this.#load(await this.#index.entries(key))
    if (gone.length > 0) await this.#index.forget(key, gone)
    const matching = tasks
      .filter(
        (task) =>
          (query.owner === undefined || task.owner === query.owner) &&
          (query.contextId === undefined || task.contextId === query.contextId) &&
          (query.state === undefined || task.status.state === query.state) &&
          (query.updatedSince === undefined || task.updatedAt >= query.updatedSince),
      )
      .sort(newestFirst)
    const start = after ? matching.findIndex((task) => newestFirst(task, after) > 0) : 0
    const page = start === -1 ? [] : matching.slice(start, start + query.pageSize)
    const last = page.at(-1)
    const more = start !== -1 && start + query.pageSize < matching.length
    return {
      tasks: page,
      ...(more && last && { nextPageToken: encodePageToken(last) }),
      totalSize: matching.length,
    }
  }

  /** Removes the index entries of expired tasks; see task-index.ts. Returns how many tasks. */
  sweep(limit?: number): Promise<number> {
    return this.#index.sweep(limit)
  }

  /** The tasks of some index entries, and the entries whose task is gone (expired). */
  async #load(entries: readonly IndexEntry[]): Promise<{ tasks: Task[]; gone: IndexEntry[] }> {
    const tasks: Task[] = []
    const gone: IndexEntry[] = []
    if (entries.length === 0) return { tasks, gone }
    const pipeline = this.#redis.pipeline()
    for (const { taskId } of entries) pipeline.hgetall(taskKeys(this.#prefix, taskId).task)
    const replies = (await pipeline.exec()) ?? []
    for (const [i, [error, fields]] of replies.entries()) {
      if (error) throw error
      const entry = entries[i]!
      const hash = fields as Record<string, string>
      if (Object.keys(hash).length === 0) gone.push(entry)
      else tasks.push(decodeTask(entry.taskId, hash))
    }
    return { tasks, gone }
  }

  #expiresAt(task: Task): number | undefined {
    return this.#ttl > 0 && isTerminal(task.status.state)
      ? Date.now() + this.#ttl * 1000
      : undefined
  }
}
