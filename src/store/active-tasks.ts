/**
 * Which tasks each caller has open (running, or waiting for its answer), for the per-caller cap
 * on open tasks (engine/active-task-cap.ts). An entry is a lease: it lapses `leaseMs` after its
 * admission, so a release lost with a process that died mid-turn frees the caller's slot anyway.
 * Admitting a task the caller holds renews its lease: how a waiting task keeps its slot, and how
 * the message that answers it is let through.
 *
 * Implementations: memory and Redis (shared by every process on it); the contract is in
 * test/store/active-tasks.test.ts.
 */
export interface ActiveTasks {
  /**
   * Counts `taskId` as active for `caller`, unless the caller already has `limit` other active
   * tasks: then it counts nothing and returns false. Admitting an active task again renews its
   * lease and always succeeds.
   */
  admit(caller: string, taskId: string, limit: number, leaseMs: number): Promise<boolean>
  /** The task is no longer active (releasing one that is not is a no-op). */
  release(caller: string, taskId: string): Promise<void>
}
