/**
 * Each task's append-only event log. The TaskStore appends (atomically with the task change);
 * readers replay from a cursor and follow live. Event ids are opaque strings, increasing within
 * one task; an SSE stream sends them as `id:` so `Last-Event-ID` resumes exactly.
 *
 * Contract:
 * - `read(taskId, after)` MUST return the events after `after` (all when undefined), in order.
 * - `follow` MUST yield every event after `after` exactly once, in order, including those
 *   appended while it runs, and end when `signal` aborts.
 * - `lastId` MUST return the id of the newest event, or undefined for an empty log.
 * - An `after` that is not an id of this log's format throws InvalidRequestError.
 */
import type { StoredEvent } from '../domain/events.js'

export interface EventLog {
  read(taskId: string, after?: string): Promise<StoredEvent[]>
  follow(taskId: string, after: string | undefined, signal: AbortSignal): AsyncIterable<StoredEvent>
  lastId(taskId: string): Promise<string | undefined>
}
