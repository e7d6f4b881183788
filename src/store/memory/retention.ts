/**
 * Which finished tasks the embedded store keeps: each for a fixed time (the TTL), and, when the
 * store is full, none older than it must. The TTL is the same for every task, so expiry order is
 * the order tasks ended: one FIFO queue serves both, with one unref'd sweep timer for the TTL
 * and `forgetOldest` for the store's cap.
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

  /** Queues a task that has just ended (each task ends once: terminal tasks never change). */
  expireLater(taskId: string): void {
    this.#queue.push({ taskId, expiresAt: this.now() + this.ttlMs })
    if (this.ttlMs > 0 && !this.#timer) {
      this.#timer = setInterval(() => this.sweep(), Math.min(this.ttlMs, 60_000))
      this.#timer.unref()
    }
  }

  /** How many ended tasks are kept now. */
  get size(): number {
    return this.#queue.length - this.#head
  }

  /** Forgets every task whose time is up (none when there is no TTL). */
  sweep(): void {
    if (this.ttlMs <= 0) return
    const now = this.now()
    while (this.#head < this.#queue.length && this.#queue[this.#head]!.expiresAt <= now) {
      this.#forgetHead()
    }
  }

  /** Forgets the task that ended first, before its time; false when no ended task is kept. */
  forgetOldest(): boolean {
    if (this.#head === this.#queue.length) return false
    this.#forgetHead()
    return true
  }

  stop(): void {
    clearInterval(this.#timer)
    this.#timer = undefined
  }

  #forgetHead(): void {
    this.forget(this.#queue[this.#head]!.taskId)
    this.#head++
    // Compact now and then instead of shifting on every expiry.
    if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue.splice(0, this.#head)
      this.#head = 0
    }
  }
}
