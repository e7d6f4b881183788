/**
 * The embedded EventLog: per-task lists of deep-frozen events in process memory (handed out
 * as they are, see freeze.ts), with in-process followers woken on append.
 */
import type { StoredEvent, TaskEvent } from '../../domain/events.js'
import { InvalidRequestError } from '../../domain/errors.js'
import type { EventLog } from '../event-log.js'
import { deepFreeze } from './freeze.js'

interface Log {
  events: StoredEvent[]
  /** Made when the first follower waits: most logs are never followed live. */
  waiters?: Set<() => void>
}

export class MemoryEventLog implements EventLog {
  readonly #logs = new Map<string, Log>()

  /** Called by MemoryTaskStore inside its atomic step; ids are 1, 2, 3… per task. */
  append(taskId: string, event: TaskEvent): StoredEvent {
    const log = this.#log(taskId)
    const stored = deepFreeze({ id: String(log.events.length + 1), event })
    log.events.push(stored)
    if (log.waiters?.size) {
      const waiters = [...log.waiters]
      log.waiters.clear()
      for (const wake of waiters) wake()
    }
    return stored
  }

  delete(taskId: string): void {
    const log = this.#logs.get(taskId)
    this.#logs.delete(taskId)
    for (const wake of log?.waiters ?? []) wake()
  }

  async read(taskId: string, after?: string): Promise<StoredEvent[]> {
    return this.#readNow(taskId, after)
  }

  async lastId(taskId: string): Promise<string | undefined> {
    const length = this.#logs.get(taskId)?.events.length ?? 0
    return length === 0 ? undefined : String(length)
  }

  async *follow(taskId: string, after: string | undefined, signal: AbortSignal) {
    let cursor = after
    while (!signal.aborted) {
      const batch = this.#readNow(taskId, cursor)
      if (batch.length === 0) {
        await this.#nextAppend(taskId, signal)
        continue
      }
      for (const stored of batch) {
        yield stored
        cursor = stored.id
      }
    }
  }

  #readNow(taskId: string, after: string | undefined): StoredEvent[] {
    const events = this.#logs.get(taskId)?.events ?? []
    return events.slice(positionAfter(after))
  }

  #nextAppend(taskId: string, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const log = this.#log(taskId)
      const waiters = (log.waiters ??= new Set())
      const wake = () => {
        signal.removeEventListener('abort', wake)
        waiters.delete(wake)
        // A follower of a task that has no log (yet, or any more) leaves nothing behind.
        if (log.events.length === 0 && waiters.size === 0 && this.#logs.get(taskId) === log) {
          this.#logs.delete(taskId)
        }
        resolve()
      }
      waiters.add(wake)
      signal.addEventListener('abort', wake, { once: true })
    })
  }

  #log(taskId: string): Log {
    let log = this.#logs.get(taskId)
    if (!log) {
      log = { events: [] }
      this.#logs.set(taskId, log)
    }
    return log
  }
}

function positionAfter(after: string | undefined): number {
  if (after === undefined) return 0
  if (!/^\d{1,15}$/.test(after)) {
    throw new InvalidRequestError(`"${after}" is not an event id of this server`, 'Last-Event-ID')
  }
  return Number(after)
}
