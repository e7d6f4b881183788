/**
 * Skills that go on running after their turn was stopped. A turn ends at its abort (a cancel,
 * a timeout, a shutdown, a hand-back to another worker) whether its skill stops or not: the
 * task is settled, and what the skill reports later is refused. A skill that ignores
 * `ctx.signal` keeps using CPU and memory outside every limit, so it is made visible: the log
 * names it once it has outlived its turn by OUTLIVING_AFTER_MS (and again when it ends), and
 * `count` (the `a2a_skills_outliving_turn` gauge) says how many there are now.
 */
import type { Logger } from 'pino'
import type { AbortReason } from './dispatcher.js'

/** How long a skill may take to stop after its turn did before it counts as outliving it. */
export const OUTLIVING_AFTER_MS = 5_000

const STOPPED_BY: Record<AbortReason, string> = {
  canceled: 'its task was canceled',
  timeout: 'it timed out',
  shutdown: 'the server began shutting down',
  released: 'its turn was handed to another worker',
}

export class OutlivingSkills {
  #count = 0

  constructor(private readonly afterMs = OUTLIVING_AFTER_MS) {}

  /** Skills running now whose turn ended more than `afterMs` ago. */
  get count(): number {
    return this.#count
  }

  /** Watches the `execution` of a skill whose turn has just been stopped for `reason`. */
  watch(execution: Promise<unknown>, reason: AbortReason, log: Logger): void {
    const stoppedAt = Date.now()
    let outliving = false
    const timer = setTimeout(() => {
      outliving = true
      this.#count += 1
      log.warn(
        { reason, outlivingMs: this.afterMs },
        `skill still running ${this.afterMs / 1000} s after ${STOPPED_BY[reason]}: it does not stop on ctx.signal; what it reports is dropped, and it uses resources until it returns`,
      )
    }, this.afterMs).unref()
    const ended = () => {
      clearTimeout(timer)
      if (!outliving) return
      this.#count -= 1
      log.warn({ reason, outlivedMs: Date.now() - stoppedAt }, 'skill that outlived its turn ended')
    }
    // Its outcome was settled by the abort; how it ends now only ends the watch.
    void execution.then(ended, ended)
  }
}
