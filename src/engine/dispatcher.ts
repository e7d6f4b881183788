/**
 * Where a task's turn runs. The inline dispatcher runs it in this process; a queue dispatcher
 * (Redis) hands it to any worker. Both abort a turn when its task is canceled.
 */
import type { Task } from '../domain/model.js'
import type { WriteOrigin } from '../store/task-store.js'

export interface Dispatcher {
  /**
   * Runs the task's next turn. `task` is the task as the write that calls for the turn left it
   * (created, or moved to working by a message). Resolves once the turn is accepted, not when it
   * ends. `origin`: the request that started the turn, handed to the turn's writes (a queued
   * turn carries it).
   */
  dispatch(task: Task, origin?: WriteOrigin): Promise<DispatchedTurn>
  /**
   * Runs the task's turn unless one is waiting or running already: for a retried request that
   * finds its task still not ended, whose turn may have been lost between the task's write and
   * the dispatch. Resolves with the new turn, or undefined when there was one (or when it is
   * too early to tell).
   */
  resume(task: Task, origin?: WriteOrigin): Promise<DispatchedTurn | undefined>
  /** Aborts the turn running for this task, if any. */
  abort(taskId: string, reason: AbortReason): Promise<void>
  /** Takes no more turns; waits up to `graceMs` for running ones, then aborts them. */
  close(graceMs: number): Promise<void>
  /** How many turns run in this process now (for the metrics); absent: not known. */
  readonly runningCount?: number
}

export interface DispatchedTurn {
  /**
   * Settles when the turn has ended, when this process learns of it; with the task as the turn
   * left it, when known. Every turn ends with its task in a final state, so a blocking send can
   * wait on this instead of following the event log.
   */
  ended?: Promise<Task | undefined>
}

/**
 * Why a turn stops early. `canceled`: its task was canceled (the cancel wrote the state).
 * `timeout` and `shutdown`: the task fails, saying which. `released`: the turn moves to another
 * worker (this one is shutting down, or lost the turn to a reclaim); nothing is written.
 */
export type AbortReason = 'canceled' | 'timeout' | 'shutdown' | 'released'
