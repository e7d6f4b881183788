/**
 * Callers of tokens verified lately, by the exact `Authorization` header that carried them, so
 * a client sending the same token again is not verified (and decoded, and hashed) again. An
 * entry lapses at the token's own `exp` or after `ttlMs`, whichever comes first, so an expired
 * token is never let through: past that it is verified afresh (with the configured clock skew).
 * At most `max` entries; the oldest goes first. Failed verifications are never kept.
 */
import type { Caller } from '../../domain/caller.js'

interface Entry {
  caller: Caller
  /** Epoch ms after which the entry no longer counts. */
  until: number
}

export class VerifiedTokens {
  readonly #entries = new Map<string, Entry>()

  constructor(
    private readonly max: number,
    private readonly ttlMs: number,
  ) {}

  /** The caller verified for this header, while its entry lasts. */
  get(header: string, time = Date.now()): Caller | undefined {
    const entry = this.#entries.get(header)
    if (entry === undefined) return undefined
    if (entry.until > time) return entry.caller
    this.#entries.delete(header)
    return undefined
  }

  /** Keeps `caller` for `header` until the token's `exp` (seconds), at most `ttlMs`. */
  set(header: string, caller: Caller, exp: unknown, time = Date.now()): void {
    if (typeof exp !== 'number' || !Number.isFinite(exp)) return
    const until = Math.min(time + this.ttlMs, exp * 1000)
    if (until <= time || this.max === 0) return
    this.#entries.delete(header)
    if (this.#entries.size >= this.max) {
      const oldest = this.#entries.keys().next()
      if (!oldest.done) this.#entries.delete(oldest.value)
    }
    // Shared by every request that sends the header: nobody may change it.
    Object.freeze(caller.scopes)
    this.#entries.set(header, { caller: Object.freeze(caller), until })
  }

  get size(): number {
    return this.#entries.size
  }
}
