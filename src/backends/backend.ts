/**
 * Where tasks, events and turns live: in this process (memory.ts, the zero-infrastructure
 * default) or on Redis (redis.ts, when REDIS_URL is set). buildApp wires one of them.
 */
import type { Dispatcher } from '../engine/dispatcher.js'
import type { Runner } from '../engine/runner.js'
import type { Unusable } from '../http/routes/health.js'
import type { ActiveTasks } from '../store/active-tasks.js'
import type { EventLog } from '../store/event-log.js'
import type { TaskStore } from '../store/task-store.js'

export interface Backend {
  tasks: TaskStore
  events: EventLog
  activeTasks: ActiveTasks
  /**
   * The dispatcher whose turns `runner` runs (where they run is the backend's business).
   * `tasks`: the store as the engine writes to it (audited), for the dispatcher's own writes.
   */
  dispatcher(runner: Runner, tasks: TaskStore): Dispatcher
  /** Turns waiting or running in a work queue shared by every process; absent: no queue. */
  queuedTurns?(): Promise<number>
  /** Workers that said they read the shared work queue within its visibility timeout. */
  queueWorkers?(): Promise<number>
  /**
   * How full an in-process store is: tasks held, its maximum (0: none), and the ended tasks it
   * let go early to make room. Absent when tasks live elsewhere.
   */
  heldTasks?(): { held: number; max: number; forgottenEarly: number }
  /** The dependencies this process cannot reach right now; empty when it is ready. */
  unreachable(): Promise<string[]>
  /**
   * The dependencies this process will not use before it restarts with a setting changed (a
   * REDIS_URL naming a database Redis lacks); absent or empty: an outage may pass by itself.
   */
  unusable?(): Unusable[]
  /** Closes what the backend opened; runs after the dispatcher has closed. */
  close(): Promise<void>
}
