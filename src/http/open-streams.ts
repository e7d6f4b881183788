/**
 * How many SSE streams each caller has open on this process, and the most it may: each holds a
 * socket and a follower (on Redis, a channel subscription) while it follows its task, so one
 * caller's forgotten streams must not take them from everyone. A stream over the limit is
 * refused before anything is created. `limit` 0: no limit.
 *
 * At shutdown, `endAll()` ends the streams still open once running turns have drained: with
 * Redis a turn is handed to another worker rather than ended, and its stream would otherwise
 * hold the process open for as long as the task runs elsewhere. The client resumes it on another
 * process, from its `Last-Event-ID`.
 */
import { StreamLimitError } from '../domain/errors.js'

export class OpenStreams {
  readonly #open = new Map<string, number>()
  /** How to end each open stream. */
  readonly #enders = new Set<() => void>()

  constructor(readonly limit: number) {}

  /**
   * Takes a slot for `caller`, or throws StreamLimitError; returns its release (idempotent).
   * `end` ends the stream (`endAll`).
   */
  open(caller: string, end: () => void): () => void {
    const open = this.#open.get(caller) ?? 0
    if (this.limit > 0 && open >= this.limit) throw new StreamLimitError(this.limit)
    this.#open.set(caller, open + 1)
    this.#enders.add(end)
    let released = false
    return () => {
      if (released) return
      released = true
      this.#enders.delete(end)
      const left = (this.#open.get(caller) ?? 1) - 1
      if (left === 0) this.#open.delete(caller)
      else this.#open.set(caller, left)
    }
  }

  /** Ends every stream open now (each one's release follows, as its connection closes). */
  endAll(): void {
    for (const end of [...this.#enders]) end()
  }

  /** Streams open now, every caller's. */
  get total(): number {
    return this.#enders.size
  }

  /** Streams `caller` has open now. */
  count(caller: string): number {
    return this.#open.get(caller) ?? 0
  }
}
