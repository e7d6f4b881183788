/**
 * The queue dispatcher: a turn goes into the Redis work queue, and whichever worker takes it runs
 * it. When this process runs turns too and its worker has a free slot, the worker takes the
 * oldest waiting turn in the same step that queues this one (usually this one) and runs it with
 * the task as just written: no wake-up read, no read of the task. A cancel reaches the worker
 * running the turn through the control channel; the dispatching process learns that a turn has
 * ended from the worker (directly, or through its `ended` channel), so a blocking send waits on
 * that rather than following the task's event log.
 */
import type { Logger } from 'pino'
import { ServiceUnavailableError } from '../../domain/errors.js'
import type { Task, TaskState } from '../../domain/model.js'
import { isFinal } from '../../domain/state-machine.js'
import type { AbortReason, DispatchedTurn, Dispatcher } from '../../engine/dispatcher.js'
import { RECONNECT_CAP_MS } from '../../store/redis/connection.js'
import type { QueuedTurn, WorkQueue } from '../../store/redis/work-queue.js'
import type { WriteOrigin } from '../../store/task-store.js'
import type { QueueWorker } from './worker.js'

export interface QueueDispatcherOptions {
  queue: WorkQueue
  /** This process's worker, when its role includes running turns. */
  worker?: QueueWorker
  /** The task's current state (undefined when it is gone): a cheap read, for rechecks. */
  stateOf: (taskId: string) => Promise<TaskState | undefined>
  log: Logger
  /**
   * How long a dispatched turn's `ended` is kept waiting for a notice before it settles anyway
   * (a notice can be lost while Redis is unreachable). Longer than any blocking send waits.
   */
  endedTimeoutMs: number
}

interface Waiting {
  resolve: (task?: Task) => void
  ended: Promise<Task | undefined>
  since: number
  deadline: number
}

/** How long after a task's last change a retry may decide its turn was lost (see resume). */
export const RESUME_GRACE_MS = 5 * RECONNECT_CAP_MS

/** A wait this old is checked against the task's state every second, in case its notice was lost. */
const RECHECK_AFTER_MS = 2000

export class QueueDispatcher implements Dispatcher {
  readonly #options: QueueDispatcherOptions
  readonly #waiting = new Map<string, Waiting>()
  readonly #timer: NodeJS.Timeout
  #closed = false
  #rechecking = false

  constructor(options: QueueDispatcherOptions) {
    this.#options = options
    this.#timer = setInterval(() => this.#tick(), 1000).unref()
  }

  /** The turns this process's worker runs now (none without a worker). */
  get runningCount(): number {
    return this.#options.worker?.runningCount ?? 0
  }

  async dispatch(task: Task, origin?: WriteOrigin): Promise<DispatchedTurn> {
    if (this.#closed) throw new ServiceUnavailableError('The server is shutting down')
    const taskId = task.id
    const { ended } = this.#expect(taskId)
    const { queue, worker } = this.#options
    // A local worker with a free slot takes the oldest waiting turn as it queues this one.
    const reserved = worker?.reserve() ?? false
    let taken: QueuedTurn[] = []
    try {
      ;({ taken } = await queue.enqueue(
        taskId,
        queue.consumer,
        origin?.requestId,
        reserved ? 1 : 0,
      ))
    } catch (error) {
      this.turnEnded(taskId)
      throw error
    } finally {
      if (reserved) worker!.adopt(taken, task)
    }
    return { ended }
  }

  async resume(task: Task, origin?: WriteOrigin): Promise<DispatchedTurn | undefined> {
    if (this.#closed) throw new ServiceUnavailableError('The server is shutting down')
    const taskId = task.id
    // This process dispatched the task's turn and has not heard of its end: it is not lost.
    if (this.#waiting.has(taskId)) return undefined
    // The request that wrote the task may still be queueing its turn (on any process): a
    // resume now could queue a second one. Past the grace, that dispatch has queued the turn
    // or failed (a command fails within one reconnection attempt).
    if (Date.now() - Date.parse(task.updatedAt) < RESUME_GRACE_MS) return undefined
    // Expected before it is queued, as in dispatch: a local worker may end it at once.
    const { ended } = this.#expect(taskId)
    const { queue } = this.#options
    let added: boolean
    try {
      added = (await queue.ensure(taskId, queue.consumer, origin?.requestId)).added
    } catch (error) {
      this.turnEnded(taskId)
      throw error
    }
    if (added) return { ended }
    // The turn was queued already, by whichever process: the caller follows the task's log.
    this.turnEnded(taskId)
    return undefined
  }

  async abort(taskId: string, reason: AbortReason): Promise<void> {
    if (this.#options.worker?.abort(taskId, reason)) return
    if (reason !== 'canceled') return
    try {
      await this.#options.queue.publishCancel(taskId)
    } catch (error) {
      // The task is canceled already; its worker sees that on its next write, or on reconnect.
      this.#options.log.warn({ err: error, taskId }, 'cannot tell the workers about a cancel')
    }
  }

  /** A turn this process dispatched has ended (told by a worker; with its task, if local). */
  turnEnded(taskId: string, task?: Task): void {
    const waiting = this.#waiting.get(taskId)
    if (!waiting) return
    this.#waiting.delete(taskId)
    waiting.resolve(task)
  }

  /** Settles the waits (all, or those older than `olderThan`) whose task is final or gone. */
  async recheck(olderThan = Date.now()): Promise<void> {
    if (this.#rechecking) return
    this.#rechecking = true
    try {
      for (const [taskId, { since }] of [...this.#waiting]) {
        if (since > olderThan) continue
        const state = await this.#options.stateOf(taskId)
        if (state === undefined || isFinal(state)) this.turnEnded(taskId)
      }
    } catch {
      // Redis is unreachable: the next tick, or the reconnection, looks again.
    } finally {
      this.#rechecking = false
    }
  }

  async close(graceMs: number): Promise<void> {
    this.#closed = true
    clearInterval(this.#timer)
    await this.#options.worker?.close(graceMs)
    // Blocking sends answer with the task as it is now, instead of holding the shutdown.
    for (const taskId of [...this.#waiting.keys()]) this.turnEnded(taskId)
  }

  #expect(taskId: string): Waiting {
    // A previous wait for this task (its notice lost) ends now: a new turn has begun.
    this.turnEnded(taskId)
    let resolve!: (task?: Task) => void
    const ended = new Promise<Task | undefined>((settle) => (resolve = settle))
    const since = Date.now()
    const waiting = { resolve, ended, since, deadline: since + this.#options.endedTimeoutMs }
    this.#waiting.set(taskId, waiting)
    return waiting
  }

  #tick(): void {
    const time = Date.now()
    for (const [taskId, { deadline }] of this.#waiting) {
      if (deadline <= time) this.turnEnded(taskId)
    }
    void this.recheck(time - RECHECK_AFTER_MS)
  }
}
