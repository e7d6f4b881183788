/**
 * How many SSE streams each caller has open on this process, and the most it may: each holds a
 * socket and a follower (on Redis, a channel subscription) while it follows its task, so one
 * caller's forgotten streams must not take them from everyone. A stream over the limit is
 * refused before anything is created. `limit` 0: no limit.
 */
import { StreamLimitError } from '../domain/errors.js'

export class OpenStreams {
  readonly #open = new Map<string, number>()
  #total = 0

  constructor(readonly limit: number) {}

  /** Takes a slot for `caller`, or throws StreamLimitError; returns its release (idempotent). */
  open(caller: string): () => void {
    const open = this.#open.get(caller) ?? 0
    if (this.limit > 0 && open >= this.limit) throw new StreamLimitError(this.limit)
    this.#open.set(caller, open + 1)
    this.#total += 1
    let released = false
    return () => {
      if (released) return
      released = true
      this.#total -= 1
      const left = (this.#open.get(caller) ?? 1) - 1
      if (left === 0) this.#open.delete(caller)
      else this.#open.set(caller, left)
    }
  }

  /** Streams open now, every caller's. */
  get total(): number {
    return this.#total
  }

  /** Streams `caller` has open now. */
  count(caller: string): number {
    return this.#open.get(caller) ?? 0
  }
}
