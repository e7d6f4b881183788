/**
 * Which tasks each caller has running (submitted or working), for the per-caller cap on active
 * tasks. An entry is a lease: it lapses `leaseMs` after its admission, so a release lost with a
 * process that died mid-turn frees the caller's slot anyway. A task waiting for input is not
 * active: its turn has ended, and the message that continues it is admitted again.
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
