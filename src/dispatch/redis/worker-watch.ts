/**
 * An API process that dispatches into a queue no worker reads says so. Its tasks would sit in
 * `submitted` with nothing in its log: every worker is stopped, or reads another
 * REDIS_KEY_PREFIX. Checked every visibility timeout: turns in the queue and no worker alive
 * within it is a warning, once, and a worker coming back is said too. So is a worker that lacks
 * a skill this process serves (a rolling deploy that adds one, a worker started without the
 * SKILL_MODULES): a turn of that skill it takes fails there and uses up an attempt.
 */
import type { Logger } from 'pino'
import type { WorkQueue } from '../../store/redis/work-queue.js'

export interface WorkerWatchOptions {
  queue: Pick<WorkQueue, 'depth' | 'liveWorkers'>
  visibilityTimeoutMs: number
  log: Logger
  /** REDIS_KEY_PREFIX, named in the warning (a worker on another prefix reads another queue). */
  prefix: string
  /** The skills this process serves, which every worker should run. */
  skillIds: readonly string[]
}

/** Starts watching; returns what stops it. */
export function watchForWorkers({
  queue,
  visibilityTimeoutMs,
  log,
  prefix,
  skillIds,
}: WorkerWatchOptions): () => void {
  let starved = false
  let busy = false
  /** Workers already said to lack skills, with what they lacked. */
  const lacking = new Map<string, string>()
  const check = async () => {
    const [turns, workers] = await Promise.all([
      queue.depth(),
      queue.liveWorkers(visibilityTimeoutMs),
    ])
    if (turns > 0 && workers.length === 0 && !starved) {
      starved = true
      log.warn(
        { turns, prefix },
        `${turns} turn${turns === 1 ? '' : 's'} in the work queue, and no worker has read the queue for ${visibilityTimeoutMs / 1000} s: their tasks wait; start a worker (ROLE=worker or all) with the same REDIS_URL and REDIS_KEY_PREFIX ("${prefix}")`,
      )
    } else if (workers.length > 0 && starved) {
      starved = false
      log.info({ workers: workers.length }, 'a worker reads the work queue again')
    }
    for (const worker of workers) {
      const missing = skillIds.filter((id) => !worker.skillIds.includes(id))
      const said = missing.join(', ')
      if (missing.length > 0 && lacking.get(worker.name) !== said) {
        log.warn(
          { worker: worker.name, missing },
          `worker ${worker.name} does not run skill${missing.length === 1 ? '' : 's'} ${said}, which this process serves: a turn of ${missing.length === 1 ? 'it' : 'them'} that it takes fails there and uses up an attempt; give every process the same BUNDLED_SKILLS and SKILL_MODULES`,
        )
      }
      if (missing.length > 0) lacking.set(worker.name, said)
      else lacking.delete(worker.name)
    }
    // Forget the workers gone since (every restart is a new name).
    const live = new Set(workers.map((worker) => worker.name))
    for (const name of lacking.keys()) if (!live.has(name)) lacking.delete(name)
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
