/**
 * The per-caller cap on open tasks (MAX_ACTIVE_TASKS_PER_CALLER): a task counts from its send
 * until it ends, also while it waits for its caller's answer (input-required, auth-required).
 * A waiting task holds memory (or Redis) for as long as it may wait: were it free, one caller
 * could fill the store with waiting tasks and shut every other caller out. Admission happens
 * before the task is written, so a refused send leaves nothing behind. A release that fails (the
 * store is unreachable) is logged, not thrown: the lease lapses by itself.
 */
import type { Logger } from 'pino'
import { ActiveTaskLimitError } from '../domain/errors.js'
import type { TaskState } from '../domain/model.js'
import { INTERRUPTED_STATES, isTerminal } from '../domain/state-machine.js'
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
  /** INPUT_TIMEOUT_SECONDS, in ms: how long a task may wait for its caller; 0: for ever. */
  waitTimeoutMs: number
  log: Logger
}

export class ActiveTaskCap {
  constructor(private readonly options: ActiveTaskCapOptions) {}

  /** Throws ActiveTaskLimitError when `owner` already has `limit` open tasks. */
  async admit(owner: string | undefined, taskId: string, skill: Skill): Promise<void> {
    const { activeTasks, limit, skillTimeoutMs } = this.options
    if (limit === 0) return
    const timeoutMs = skill.timeoutMs ?? skillTimeoutMs
    const leaseMs = (timeoutMs > 0 ? timeoutMs : UNTIMED_LEASE_MS) + QUEUE_SLACK_MS
    if (!(await activeTasks.admit(owner ?? '', taskId, limit, leaseMs))) {
      throw new ActiveTaskLimitError(limit)
    }
  }

  /**
   * The task's turn ended and it waits for its caller: it keeps its slot for as long as it may
   * wait (the message that answers it is admitted again, always, as one of the caller's own).
   */
  async hold(owner: string | undefined, taskId: string): Promise<void> {
    const { activeTasks, limit, waitTimeoutMs } = this.options
    if (limit === 0) return
    const leaseMs = (waitTimeoutMs > 0 ? waitTimeoutMs : UNTIMED_LEASE_MS) + QUEUE_SLACK_MS
    try {
      await activeTasks.admit(owner ?? '', taskId, limit, leaseMs)
    } catch (error) {
      this.options.log.warn(
        { err: error, taskId },
        "cannot hold a waiting task against its caller's cap; its lease lapses",
      )
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

  /** Where a task's slot goes as the task is now: freed once it ended, held while it waits. */
  async settle(owner: string | undefined, taskId: string, state: TaskState): Promise<void> {
    if (isTerminal(state)) await this.release(owner, taskId)
    else if (INTERRUPTED_STATES.includes(state)) await this.hold(owner, taskId)
  }
}
