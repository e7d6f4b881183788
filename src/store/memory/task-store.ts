/**
 * The embedded TaskStore: tasks in process memory. Each method runs to completion without
 * awaiting, so a change and its event are one atomic step on Node's single thread.
 */
import type { StoredEvent, TaskChange, TaskEvent } from '../../domain/events.js'
import { TaskNotFoundError } from '../../domain/errors.js'
import type { Task } from '../../domain/model.js'
import { applyChange } from '../../domain/task-change.js'
import { decodePageToken, encodePageToken, newestFirst } from '../page-token.js'
import type { TaskPage, TaskQuery, TaskStore } from '../task-store.js'
import { TransitionRejectedError } from '../task-store.js'
import type { MemoryEventLog } from './event-log.js'

export class MemoryTaskStore implements TaskStore {
  readonly #tasks = new Map<string, Task>()

  constructor(private readonly events: MemoryEventLog) {}

  create(task: Task, first: TaskEvent): Promise<{ task: Task; created: boolean }> {
    const existing = this.#tasks.get(task.id)
    if (existing) return Promise.resolve({ task: structuredClone(existing), created: false })
    this.#tasks.set(task.id, structuredClone(task))
    this.events.append(task.id, first)
    return Promise.resolve({ task: structuredClone(task), created: true })
  }

  get(taskId: string): Promise<Task | undefined> {
    const task = this.#tasks.get(taskId)
    return Promise.resolve(task && structuredClone(task))
  }

  apply(taskId: string, change: TaskChange): Promise<{ task: Task; event: StoredEvent }> {
    const task = this.#tasks.get(taskId)
    if (!task) return Promise.reject(new TaskNotFoundError(taskId))
    const result = applyChange(task, change)
    if (!result.ok) {
      return Promise.reject(new TransitionRejectedError(taskId, result.state, change.kind))
    }
    this.#tasks.set(taskId, structuredClone(result.task))
    const event = this.events.append(taskId, result.event)
    return Promise.resolve({ task: structuredClone(result.task), event })
  }

  async list(query: TaskQuery): Promise<TaskPage> {
    const after = query.pageToken === undefined ? undefined : decodePageToken(query.pageToken)
    const matching = [...this.#tasks.values()]
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
      tasks: structuredClone(page),
      ...(more && last && { nextPageToken: encodePageToken(last) }),
      totalSize: matching.length,
    }
  }
}
