/**
 * Forgets terminal tasks after a fixed time. The TTL is the same for every task, so expiry
 * order is the order tasks ended: a FIFO queue and one unref'd sweep timer suffice.
 */
export class Retention {
  readonly #queue: { taskId: string; expiresAt: number }[] = []
  #head = 0
  #timer: NodeJS.Timeout | undefined

  constructor(
    private readonly ttlMs: number,
    private readonly forget: (taskId: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  expireLater(taskId: string): void {
    if (this.ttlMs <= 0) return
    this.#queue.push({ taskId, expiresAt: this.now() + this.ttlMs })
    if (!this.#timer) {
      this.#timer = setInterval(() => this.sweep(), Math.min(this.ttlMs, 60_000))
      this.#timer.unref()
    }
  }

  /** Forgets every task whose time is up. */
  sweep(): void {
    const now = this.now()
    while (this.#head < this.#queue.length && this.#queue[this.#head]!.expiresAt <= now) {
      this.forget(this.#queue[this.#head]!.taskId)
      this.#head++
    }
    // Compact now and then instead of shifting on every expiry.
    if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue.splice(0, this.#head)
      this.#head = 0
    }
  }

  stop(): void {
    clearInterval(this.#timer)
    this.#timer = undefined
  }
}
