/**
 * One run of a skill for a task, stoppable with a reason (cancel, timeout, shutdown). Its
 * AbortSignal is made on first use: an AbortController is costly to create, and a fast skill
 * that never looks at `ctx.signal` finishes without one.
 */
import type { AbortReason } from './dispatcher.js'

export class Turn {
  #reason: AbortReason | undefined
  #controller: AbortController | undefined
  #onAbort: ((reason: AbortReason) => void) | undefined

  get aborted(): boolean {
    return this.#reason !== undefined
  }

  get reason(): AbortReason | undefined {
    return this.#reason
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController()
      if (this.#reason) this.#controller.abort(this.#reason)
    }
    return this.#controller.signal
  }

  /** Stops the turn; the first reason wins. */
  abort(reason: AbortReason): void {
    if (this.#reason) return
    this.#reason = reason
    this.#controller?.abort(reason)
    this.#onAbort?.(reason)
  }

  /** Resolves when the turn is aborted (never, if it is not). */
  whenAborted(): Promise<AbortReason> {
    if (this.#reason) return Promise.resolve(this.#reason)
    return new Promise((resolve) => (this.#onAbort = resolve))
  }
}
