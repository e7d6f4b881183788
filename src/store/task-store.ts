/**
 * Where tasks live. Implementations: memory (the embedded default) and Redis. Both pass the one
 * contract suite in test/store/.
 *
 * Contract:
 * - `create` MUST be atomic: of two creates with one id, exactly one creates; the other gets the
 *   stored task back (`created: false`) and nothing is written.
 * - `apply` MUST check the change against the state machine and the task's CURRENT state, then
 *   write the task and append exactly one event to its EventLog, all as one atomic step: under
 *   any interleaving, a task never leaves a terminal state and never loses a change.
 * - `applyAll` MUST do the same for several changes, in order, as ONE atomic step: each change is
 *   checked against the state the previous ones left; a refused change is skipped (no event)
 *   and the ones after it still apply. A running turn's writes go through it, batched.
 * - Mutating a returned task MUST NOT change what is stored: return copies, or frozen objects
 *   (the memory store's choice; a write to one throws).
 * - `list` MUST order by `updatedAt` descending (then id), and paging MUST neither skip nor
 *   repeat a task that does not change while the pages are read.
 * - `overdueWaits` MUST list every task that has waited on its caller (input-required or
 *   auth-required) since `startedBefore` or earlier, as far as `limit` allows, and only such
 *   tasks as it reads them (a task may move on right after: a caller writes under a `from`
 *   guard).
 */
import type { StoredEvent, TaskChange, TaskEvent } from '../domain/events.js'
import type { Task, TaskState } from '../domain/model.js'

export interface TaskStore {
  create(
    task: Task,
    first: TaskEvent,
    origin?: WriteOrigin,
  ): Promise<{ task: Task; created: boolean }>
  get(taskId: string): Promise<Task | undefined>
  /** Throws TaskNotFoundError, or TransitionRejectedError carrying the state that refused it. */
  apply(
    taskId: string,
    change: TaskChange,
    origin?: WriteOrigin,
  ): Promise<{ task: Task; event: StoredEvent }>
  /**
   * `events[i]` is the event of `changes[i]`, or undefined where the state refused it; `task` is
   * the task after all of them. Throws TaskNotFoundError.
   */
  applyAll(
    taskId: string,
    changes: readonly TaskChange[],
    origin?: WriteOrigin,
  ): Promise<AppliedChanges>
  /** Throws InvalidRequestError for a page token it did not issue. */
  list(query: TaskQuery): Promise<TaskPage>
  /**
   * Ids of tasks waiting on their caller since `startedBefore` (epoch ms) or earlier: their
   * status (input-required or auth-required) is that old. At most `limit`.
   */
  overdueWaits(startedBefore: number, limit: number): Promise<string[]>
}

/**
 * The request a write comes from, for the audit trail (stores themselves ignore it): the engine
 * passes it down explicitly, from the route through the turn it starts.
 */
export interface WriteOrigin {
  requestId?: string
}

export interface AppliedChanges {
  task: Task
  events: (StoredEvent | undefined)[]
}

/** The task's current state does not allow the change; `state` is what the store found. */
export class TransitionRejectedError extends Error {
  constructor(
    readonly taskId: string,
    readonly state: TaskState,
    readonly attempted: TaskChange['kind'],
  ) {
    super(`task ${taskId} in state ${state} rejects a ${attempted} change`)
    this.name = 'TransitionRejectedError'
  }
}

/** Which tasks to list; every filter is optional and they combine with AND. */
export interface TaskQuery {
  owner?: string
  contextId?: string
  state?: TaskState
  /** Only tasks updated at or after this instant (RFC 3339). */
  updatedSince?: string
  /** 1 to 100. */
  pageSize: number
  /** Opaque, from a previous page's `nextPageToken`. */
  pageToken?: string
}

export interface TaskPage {
  /** Newest update first. */
  tasks: Task[]
  /** Absent on the last page. */
  nextPageToken?: string
  /** How many tasks match the query in all. */
  totalSize: number
}
