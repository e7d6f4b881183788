/**
 * An API process that dispatches into a queue no worker reads says so. Its tasks would sit in
 * `submitted` with nothing in its log: every worker is stopped, or reads another
 * REDIS_KEY_PREFIX. Checked every visibility timeout: turns in the queue and no worker alive
 * within it is a warning, once, and a worker coming back is said too.
 */
import type { Logger } from 'pino'
import type { WorkQueue } from '../../store/redis/work-queue.js'

export interface WorkerWatchOptions {
  queue: Pick<WorkQueue, 'depth' | 'liveWorkers'>
  visibilityTimeoutMs: number
  log: Logger
  /** REDIS_KEY_PREFIX, named in the warning (a worker on another prefix reads another queue). */
  prefix: string
}

/** Starts watching; returns what stops it. */
export function watchForWorkers({
  queue,
  visibilityTimeoutMs,
  log,
  prefix,
}: WorkerWatchOptions): () => void {
  let starved = false
  let busy = false
  const check = async () => {
    const [turns, workers] = await Promise.all([
      queue.depth(),
      queue.liveWorkers(visibilityTimeoutMs),
    ])
    if (turns > 0 && workers === 0 && !starved) {
      starved = true
      log.warn(
        { turns, prefix },
        `${turns} turn${turns === 1 ? '' : 's'} in the work queue, and no worker has read it for ${visibilityTimeoutMs / 1000} s: their tasks wait; start a worker (ROLE=worker or all) with the same REDIS_URL and REDIS_KEY_PREFIX ("${prefix}")`,
      )
    } else if (workers > 0 && starved) {
      starved = false
      log.info({ workers }, 'a worker reads the work queue again')
    }
  }
  const timer = setInterval(() => {
    if (busy) return
    busy = true
    // An outage is said by the connection's own log lines.
    check()
      .catch(() => undefined)
      .finally(() => (busy = false))
  }, visibilityTimeoutMs)
  timer.unref()
  return () => clearInterval(timer)
}
