/**
 * The per-caller cap on running tasks (MAX_ACTIVE_TASKS_PER_CALLER): a task counts from its
 * send (or the message that continues it) until its turn ends. Admission happens before the
 * task is written, so a refused send leaves nothing behind. A release that fails (the store is
 * unreachable) is logged, not thrown: the lease lapses by itself.
 */
import type { Logger } from 'pino'
import { ActiveTaskLimitError } from '../domain/errors.js'
import type { Skill } from '../skills/skill.js'
import type { ActiveTasks } from '../store/active-tasks.js'

/** A turn may wait this long in a queue before it runs, on top of its own timeout. */
const QUEUE_SLACK_MS = 60_000
/** The lease of a turn that has no timeout. */
const UNTIMED_LEASE_MS = 24 * 3600_000

export interface ActiveTaskCapOptions {
  activeTasks: ActiveTasks
  /** 0: no cap (admit and release do nothing). */
  limit: number
  /** SKILL_TIMEOUT_MS: how long a turn runs at most, unless its skill says otherwise. */
  skillTimeoutMs: number
  log: Logger
}

export class ActiveTaskCap {
  constructor(private readonly options: ActiveTaskCapOptions) {}

  /** Throws ActiveTaskLimitError when `owner` already has `limit` running tasks. */
  async admit(owner: string | undefined, taskId: string, skill: Skill): Promise<void> {
    const { activeTasks, limit, skillTimeoutMs } = this.options
    if (limit === 0) return
    const timeoutMs = skill.timeoutMs ?? skillTimeoutMs
    const leaseMs = (timeoutMs > 0 ? timeoutMs : UNTIMED_LEASE_MS) + QUEUE_SLACK_MS
    if (!(await activeTasks.admit(owner ?? '', taskId, limit, leaseMs))) {
      throw new ActiveTaskLimitError(limit)
    }
  }

  async release(owner: string | undefined, taskId: string): Promise<void> {
    if (this.options.limit === 0) return
    try {
      await this.options.activeTasks.release(owner ?? '', taskId)
    } catch (error) {
      this.options.log.warn(
        { err: error, taskId },
        'cannot release an active task; its lease lapses',
      )
    }
  }
}
