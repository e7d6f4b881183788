/**
 * A turn's writes to its task, in order, in as few store calls as the turn allows. Changes
 * queued while the turn runs on (a skill's artifacts, then its outcome) go to the store together,
 * in one atomic `applyAll`, once the turn waits for something else: an echo turn that moves to working,
 * emits an artifact and completes is one write, not three.
 *
 * A report (progress, artifact) is accepted at once while fewer than WRITE_AHEAD changes wait;
 * past that, it resolves when it is stored (back-pressure on a skill that emits in a tight loop).
 * `write` (a turn's outcome) always resolves when it is stored. A change the task's state refuses
 * (the task was canceled meanwhile) is dropped; a store failure is kept, and every later call
 * rejects with it, so the turn ends unrecorded (and a queue runs it again).
 */
import type { TaskChange } from '../domain/events.js'
import type { Task } from '../domain/model.js'
import type { AppliedChanges, TaskStore, WriteOrigin } from '../store/task-store.js'

/** How many unwritten changes a skill may have before its reports wait for the store. */
export const WRITE_AHEAD = 32

export class TurnWriter {
  #queued: TaskChange[] = []
  /** Settles when the queued changes are stored; made with the first of them. */
  #batch: Promise<void> | undefined
  /** The batch being written now: the next one starts after it. */
  #writing: Promise<void> = Promise.resolve()
  #failure: Error | undefined
  /** The last write's result; its task is read on demand (the Redis store decodes it then). */
  #applied: AppliedChanges | undefined

  constructor(
    private readonly store: Pick<TaskStore, 'applyAll'>,
    private readonly taskId: string,
    /** The request that started the turn, handed to the store with every write. */
    private readonly origin?: WriteOrigin,
  ) {}

  /** The task as the last write left it (undefined before the first). */
  get task(): Task | undefined {
    return this.#applied?.task
  }

  /** Queues a report; resolves once it is accepted. */
  report(change: TaskChange): Promise<void> {
    const stored = this.#queue(change)
    if (this.#queued.length < WRITE_AHEAD) {
      // Its failure surfaces on the next call, or at the turn's end.
      stored.catch(() => undefined)
      return this.#failure ? Promise.reject(this.#failure) : Promise.resolve()
    }
    return stored
  }

  /** Queues a change; resolves once it, and everything queued before it, is stored. */
  async write(change: TaskChange): Promise<Task | undefined> {
    await this.#queue(change)
    return this.task
  }

  /** Resolves once everything queued is stored. */
  async flush(): Promise<void> {
    if (this.#batch) await this.#batch
    if (this.#failure) throw this.#failure
  }

  #queue(change: TaskChange): Promise<void> {
    if (this.#failure) return Promise.reject(this.#failure)
    this.#queued.push(change)
    this.#batch ??= this.#nextBatch()
    return this.#batch
  }

  async #nextBatch(): Promise<void> {
    const previous = this.#writing
    let done!: () => void
    this.#writing = new Promise<void>((resolve) => (done = resolve))
    try {
      await previous
      // Let the turn run on until it waits for something: a tick queued from a promise job runs
      // once the jobs it chains have run, so what the turn queues meanwhile joins this batch.
      await new Promise<void>((resolve) => process.nextTick(resolve))
      const changes = this.#queued
      this.#queued = []
      this.#batch = undefined
      if (this.#failure) throw this.#failure
      try {
        this.#applied = await this.store.applyAll(this.taskId, changes, this.origin)
      } catch (error) {
        this.#failure = error instanceof Error ? error : new Error(String(error))
        throw error
      }
    } finally {
      done()
    }
  }
}
