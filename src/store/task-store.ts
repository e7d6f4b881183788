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
 * - Tasks MUST be returned as copies: mutating a returned task changes nothing stored.
 */
import type { StoredEvent, TaskChange, TaskEvent } from '../domain/events.js'
import type { Task, TaskState } from '../domain/model.js'

export interface TaskStore {
  create(task: Task, first: TaskEvent): Promise<{ task: Task; created: boolean }>
  get(taskId: string): Promise<Task | undefined>
  /** Throws TaskNotFoundError, or TransitionRejectedError carrying the state that refused it. */
  apply(taskId: string, change: TaskChange): Promise<{ task: Task; event: StoredEvent }>
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
