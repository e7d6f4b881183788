/** Runs each turn in this process, and keeps what it needs to abort or drain them. */
import { ServiceUnavailableError } from '../domain/errors.js'
import type { Task } from '../domain/model.js'
import type { AbortReason, DispatchedTurn, Dispatcher } from './dispatcher.js'
import type { Runner, TurnResult } from './runner.js'
import { Turn } from './turn.js'
import type { WriteOrigin } from '../store/task-store.js'

interface Running {
  turn: Turn
  done: Promise<TurnResult>
}

export class InlineDispatcher implements Dispatcher {
  readonly #running = new Map<string, Running>()
  #closed = false

  constructor(private readonly runner: Runner) {}

  get runningCount(): number {
    return this.#running.size
  }

  dispatch(task: Task, origin?: WriteOrigin): Promise<DispatchedTurn> {
    if (this.#closed)
      return Promise.reject(new ServiceUnavailableError('The server is shutting down'))
    const taskId = task.id
    const turn = new Turn()
    // The turn reads the task itself (free in memory): a cancel written in between is seen
    // before the skill starts, as the cancel finds no running turn here to abort yet.
    const done = this.runner.run(taskId, turn, origin).finally(() => {
      if (this.#running.get(taskId)?.turn === turn) this.#running.delete(taskId)
    })
    this.#running.set(taskId, { turn, done })
    return Promise.resolve({
      ended: done.then((result) =>
        result.recorded ? result.task : this.#unrecorded(taskId, result),
      ),
    })
  }

  /**
   * The end of a turn whose writes were not stored. No other process runs this process's turns:
   * a task whose skill it lacks fails, saying so; any other is left as it is.
   */
  async #unrecorded(
    taskId: string,
    result: Extract<TurnResult, { recorded: false }>,
  ): Promise<Task | undefined> {
    if (result.missingSkill === undefined) return undefined
    const text = `This agent does not offer skill "${result.missingSkill}"`
    return this.runner.abandon(taskId, text).catch(() => undefined)
  }

  /**
   * Nothing to resume: a task and its turn start together in this process (a turn that cannot
   * start fails its task), so a task that has not ended has its turn here.
   */
  resume(): Promise<undefined> {
    return Promise.resolve(undefined)
  }

  abort(taskId: string, reason: AbortReason): Promise<void> {
    this.#running.get(taskId)?.turn.abort(reason)
    return Promise.resolve()
  }

  async close(graceMs: number): Promise<void> {
    this.#closed = true
    const all = () => Promise.all([...this.#running.values()].map((running) => running.done))
    let timer: NodeJS.Timeout | undefined
    const graceOver = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), graceMs)
    })
    const result = await Promise.race([all().then(() => 'drained' as const), graceOver])
    clearTimeout(timer)
    if (result === 'timeout') {
      for (const running of this.#running.values()) running.turn.abort('shutdown')
      await all()
    }
  }
}
