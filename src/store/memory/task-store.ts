/**
 * The embedded TaskStore: tasks in process memory. Each method runs to completion without
 * awaiting, so a change and its event are one atomic step on Node's single thread.
 *
 * Tasks are kept deep-frozen and handed out as they are (see freeze.ts): nothing a caller does
 * to a returned task can change the stored one, and no read pays for a copy.
 *
 * It holds at most `maxTasks`: a new task then takes the place of the task that ended first,
 * before its retention is up; when none of them has ended, the new task is refused (503). Memory
 * stays bounded under any load, where an unbounded Map would grow until the process dies.
 */
import type { StoredEvent, TaskChange, TaskEvent } from '../../domain/events.js'
import { ServiceUnavailableError, TaskNotFoundError } from '../../domain/errors.js'
import type { Task } from '../../domain/model.js'
import { INTERRUPTED_STATES, isTerminal } from '../../domain/state-machine.js'
import { applyChange } from '../../domain/task-change.js'
import { pageOf } from '../task-query.js'
import type { AppliedChanges, TaskPage, TaskQuery, TaskStore } from '../task-store.js'
import { TransitionRejectedError } from '../task-store.js'
import type { MemoryEventLog } from './event-log.js'
import { deepFreeze } from './freeze.js'
import { Retention } from './retention.js'

export interface MemoryTaskStoreOptions {
  /** How long a terminal task and its events are kept; 0 keeps them until the process ends. */
  terminalTtlMs: number
  /** The most tasks held at once (0: no limit). */
  maxTasks?: number
  /** Told when the store is full: of the first task forgotten early, and of every refusal. */
  onFull?: (notice: FullStoreNotice) => void
}

/** What a full store did: forgot an ended task early, or refused a new one. */
export interface FullStoreNotice {
  outcome: 'forgot-ended' | 'refused'
  maxTasks: number
  /** How many ended tasks it has forgotten early so far. */
  forgotten: number
}

export class MemoryTaskStore implements TaskStore {
  readonly #tasks = new Map<string, Task>()
  /** The tasks waiting on their caller, and since when (ms). */
  readonly #waits = new Map<string, number>()
  readonly #retention: Retention
  readonly #maxTasks: number
  readonly #onFull: ((notice: FullStoreNotice) => void) | undefined
  #forgottenEarly = 0

  constructor(
    private readonly events: MemoryEventLog,
    options: MemoryTaskStoreOptions = { terminalTtlMs: 0 },
  ) {
    this.#retention = new Retention(options.terminalTtlMs, (taskId) => {
      this.#tasks.delete(taskId)
      this.events.delete(taskId)
    })
    this.#maxTasks = options.maxTasks ?? 0
    this.#onFull = options.onFull
  }

  create(task: Task, first: TaskEvent): Promise<{ task: Task; created: boolean }> {
    const existing = this.#tasks.get(task.id)
    if (existing) return Promise.resolve({ task: existing, created: false })
    if (this.#maxTasks > 0 && this.#tasks.size >= this.#maxTasks && !this.#makeRoom()) {
      return Promise.reject(
        new ServiceUnavailableError(
          'The server holds as many tasks as it may, and none of them has ended; retry later',
        ),
      )
    }
    this.#tasks.set(task.id, deepFreeze(task))
    this.events.append(task.id, first)
    return Promise.resolve({ task, created: true })
  }

  get(taskId: string): Promise<Task | undefined> {
    return Promise.resolve(this.#tasks.get(taskId))
  }

  apply(taskId: string, change: TaskChange): Promise<{ task: Task; event: StoredEvent }> {
    const task = this.#tasks.get(taskId)
    if (task === undefined) return Promise.reject(new TaskNotFoundError(taskId))
    const result = applyChange(task, change)
    if (!result.ok) {
      return Promise.reject(new TransitionRejectedError(taskId, result.state, change.kind))
    }
    const updated = this.#store(result.task)
    return Promise.resolve({ task: updated, event: this.events.append(taskId, result.event) })
  }

  applyAll(taskId: string, changes: readonly TaskChange[]): Promise<AppliedChanges> {
    let task = this.#tasks.get(taskId)
    if (task === undefined) return Promise.reject(new TaskNotFoundError(taskId))
    // The versions in between are never stored, so they are neither frozen nor kept.
    const applied: TaskEvent[] = []
    const slots: (number | undefined)[] = []
    for (const change of changes) {
      const result = applyChange(task, change)
      if (result.ok) {
        task = result.task
        slots.push(applied.push(result.event) - 1)
      } else {
        slots.push(undefined)
      }
    }
    if (applied.length === 0) return Promise.resolve({ task, events: slots.map(() => undefined) })
    const updated = this.#store(task)
    const stored = applied.map((event) => this.events.append(taskId, event))
    return Promise.resolve({
      task: updated,
      events: slots.map((slot) => (slot === undefined ? undefined : stored[slot])),
    })
  }

  /** Forgets the task that ended first; false (and told) when every task held is still open. */
  #makeRoom(): boolean {
    const made = this.#retention.forgetOldest()
    if (made) this.#forgottenEarly += 1
    if (!made || this.#forgottenEarly === 1) {
      this.#onFull?.({
        outcome: made ? 'forgot-ended' : 'refused',
        maxTasks: this.#maxTasks,
        forgotten: this.#forgottenEarly,
      })
    }
    return made
  }

  #store(task: Task): Task {
    const frozen = deepFreeze(task)
    this.#tasks.set(task.id, frozen)
    const { state, timestamp } = frozen.status
    if (INTERRUPTED_STATES.includes(state)) this.#waits.set(task.id, Date.parse(timestamp))
    else this.#waits.delete(task.id)
    if (isTerminal(state)) this.#retention.expireLater(task.id)
    return frozen
  }

  async list(query: TaskQuery): Promise<TaskPage> {
    return pageOf(this.#tasks.values(), query)
  }

  async overdueWaits(startedBefore: number, limit: number): Promise<string[]> {
    const overdue: string[] = []
    for (const [taskId, since] of this.#waits) {
      if (overdue.length === limit) break
      if (since <= startedBefore) overdue.push(taskId)
    }
    return overdue
  }

  /** How many tasks it holds (for tests and metrics). */
  get size(): number {
    return this.#tasks.size
  }

  /** How full it is: tasks held, its maximum (0: none), ended tasks let go early to make room. */
  fill(): { held: number; max: number; forgottenEarly: number } {
    return { held: this.#tasks.size, max: this.#maxTasks, forgottenEarly: this.#forgottenEarly }
  }

  /** Stops the expiry timer. */
  close(): void {
    this.#retention.stop()
  }
}
