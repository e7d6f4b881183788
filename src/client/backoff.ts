/** Exponential backoff with jitter, and a sleep that an AbortSignal ends. */

export interface BackoffOptions {
  /** The first delay, in ms. */
  initialDelayMs?: number
  /** No delay is longer than this, in ms. */
  maxDelayMs?: number
  /** Each delay is this many times the one before. */
  factor?: number
}

/**
 * The delay before attempt `attempt` (1-based): exponential, capped, with "equal jitter" (half
 * fixed, half random) so that many clients do not retry in step yet none retries at once.
 */
export function backoffDelay(attempt: number, options: BackoffOptions = {}): number {
  const { initialDelayMs = 200, maxDelayMs = 5_000, factor = 2 } = options
  const ceiling = Math.min(maxDelayMs, initialDelayMs * factor ** Math.max(0, attempt - 1))
  return ceiling / 2 + Math.random() * (ceiling / 2)
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error)
      return
    }
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal!.reason as Error)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
