/**
 * A task that waits on its caller (input-required, auth-required) for longer than
 * INPUT_TIMEOUT_SECONDS fails, with a status message saying so: an abandoned conversation does
 * not hold its task, and its memory or Redis keys, for ever. Every process looks every minute
 * (more often for a shorter timeout); when two find the same task, both try, and the state
 * machine lets one write.
 */
import type { Logger } from 'pino'
import type { TaskService } from './task-service.js'

/** Tasks read per store query; a longer list takes several, up to PAGES in one look. */
const PAGE = 100
const PAGES = 50

export class WaitExpiry {
  #timer: NodeJS.Timeout | undefined
  #running: Promise<number> | undefined

  constructor(
    private readonly tasks: TaskService,
    private readonly timeoutMs: number,
    private readonly log: Logger,
  ) {}

  /** Looks now and then from now on; nothing when the timeout is 0. */
  start(): void {
    if (this.timeoutMs <= 0 || this.#timer) return
    this.#timer = setInterval(() => void this.expire(), Math.min(this.timeoutMs, 60_000))
    this.#timer.unref()
  }

  /** Fails every task whose wait is over; resolves with how many. One look at a time. */
  expire(): Promise<number> {
    this.#running ??= this.#expire().finally(() => (this.#running = undefined))
    return this.#running
  }

  /** Stops looking, once a look under way has finished. */
  async stop(): Promise<void> {
    clearInterval(this.#timer)
    this.#timer = undefined
    await this.#running
  }

  async #expire(): Promise<number> {
    let failed = 0
    try {
      for (let page = 0; page < PAGES; page++) {
        const overdue = await this.tasks.overdueWaits(Date.now() - this.timeoutMs, PAGE)
        for (const taskId of overdue) {
          if (await this.tasks.endWait(taskId, this.timeoutMs)) failed++
        }
        if (overdue.length < PAGE) break
      }
      return failed
    } catch (error) {
      this.log.warn({ err: error }, 'tasks waiting on their callers could not be checked')
      return failed
    }
  }
}
