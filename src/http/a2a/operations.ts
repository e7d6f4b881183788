/**
 * The A2A operations every 0.2+ dialect offers (JSON-RPC 1.0 and 0.3, HTTP+JSON 1.0), on the
 * internal model: dialects decode their request, call one of these, and encode what it returns.
 */
import { TaskNotFoundError, UnsupportedOperationError } from '../../domain/errors.js'
import type { TaskEvent } from '../../domain/events.js'
import type { Task, TaskState } from '../../domain/model.js'
import { isFinal, isTerminal } from '../../domain/state-machine.js'
import type { MessageInput, TaskService } from '../../engine/task-service.js'
import type { TaskPage, WriteOrigin } from '../../store/task-store.js'

/** What a stream carries: the task snapshot first, then the task's events as they happen. */
export type StreamItem = { task: Task } | { event: TaskEvent }

export interface ListInput {
  contextId?: string
  state?: TaskState
  pageSize?: number
  pageToken?: string
  updatedSince?: string
}

export const DEFAULT_PAGE_SIZE = 50

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * Every task id is a UUID (the server's, or a seed client's), so any other id names no task:
 * it is TaskNotFound, as the spec asks for an unknown id, without a trip to the store.
 */
function checkTaskId(taskId: string | undefined): void {
  if (taskId !== undefined && !UUID.test(taskId)) throw new TaskNotFoundError(taskId)
}

export class A2AOperations {
  constructor(
    private readonly tasks: TaskService,
    /** How long a blocking send waits for a terminal or interrupted state. */
    private readonly sendWaitMs: number,
  ) {}

  /** Sends; a blocking send answers once the task is terminal or interrupted (or time is up). */
  async send(input: MessageInput, blocking: boolean): Promise<Task> {
    checkTaskId(input.taskId)
    const { task } = await this.tasks.sendMessage(input)
    if (!blocking || isFinal(task.status.state)) return task
    return this.tasks.waitForFinal(task.id, this.sendWaitMs)
  }

  /**
   * Sends and follows the task. Everything that can fail does so before the first item, so a
   * caller answers errors as plain replies, not as a broken stream.
   */
  async stream(input: MessageInput, signal: AbortSignal): Promise<AsyncIterable<StreamItem>> {
    checkTaskId(input.taskId)
    const { task, created } = await this.tasks.sendMessage(input)
    // A new task's log begins with its creation, which the snapshot already shows.
    if (created) return this.#follow(task, undefined, signal, true)
    const snapshot = await this.tasks.snapshot(task.id, input.owner)
    return this.#follow(snapshot.task, snapshot.cursor, signal, false)
  }

  /**
   * Follows a task that has not ended: its current state first, then what happens next.
   * `readWith`: how the caller's binding reads a task, for the refusal of a terminal one.
   */
  async subscribe(
    taskId: string,
    owner: string | undefined,
    signal: AbortSignal,
    readWith: string,
  ): Promise<AsyncIterable<StreamItem>> {
    checkTaskId(taskId)
    const { task, cursor } = await this.tasks.snapshot(taskId, owner)
    const { state } = task.status
    if (isTerminal(state)) {
      throw new UnsupportedOperationError(
        `Task ${taskId} is ${state}; a terminal task has nothing more to stream (read it with ${readWith})`,
        { taskId, state },
      )
    }
    return this.#follow(task, cursor, signal, false, true)
  }

  async get(taskId: string, owner: string | undefined): Promise<Task> {
    checkTaskId(taskId)
    return this.tasks.getFor(taskId, owner)
  }

  async cancel(taskId: string, owner: string | undefined, origin?: WriteOrigin): Promise<Task> {
    checkTaskId(taskId)
    await this.tasks.getFor(taskId, owner)
    return this.tasks.cancel(taskId, origin)
  }

  list(input: ListInput, owner: string | undefined): Promise<TaskPage> {
    return this.tasks.list({
      ...(owner !== undefined && { owner }),
      ...(input.contextId !== undefined && { contextId: input.contextId }),
      ...(input.state !== undefined && { state: input.state }),
      ...(input.updatedSince !== undefined && { updatedSince: input.updatedSince }),
      ...(input.pageToken !== undefined && { pageToken: input.pageToken }),
      pageSize: input.pageSize ?? DEFAULT_PAGE_SIZE,
    })
  }

  /**
   * The stream ends after the status that makes the task terminal or interrupted. A subscriber
   * to an interrupted task (`resumable`) waits for what the task does once it is answered.
   */
  async *#follow(
    task: Task,
    cursor: string | undefined,
    signal: AbortSignal,
    skipFirst: boolean,
    resumable = false,
  ): AsyncGenerator<StreamItem> {
    yield { task }
    const { state } = task.status
    if (resumable ? isTerminal(state) : isFinal(state)) return
    let skip = skipFirst
    for await (const { event } of this.tasks.follow(task.id, cursor, signal)) {
      if (skip) {
        skip = false
        continue
      }
      yield { event }
      if (event.kind === 'status-update' && event.final) return
    }
  }
}
