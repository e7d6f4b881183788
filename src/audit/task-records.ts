/**
 * What the audit trail records of the engine's task writes (it observes the store, see
 * store/observed-store.ts): `task-received` when a create creates, `state-change` for each status
 * stored, and `artifact-delivered` for an artifact emitted and for the last chunk of one streamed
 * in chunks (the chunks in between, an LLM's tokens say, would be a record each and tell nothing
 * more). A record names the task's owner and tenant, and the request the write came from (the
 * `origin` the engine hands down, also to a turn a worker takes from the queue).
 */
import type { StoredEvent } from '../domain/events.js'
import type { Task } from '../domain/model.js'
import { now } from '../domain/model.js'
import type { TaskObserver } from '../store/observed-store.js'
import type { WriteOrigin } from '../store/task-store.js'
import { AuditEvent } from './record.js'
import type { AuditTrail } from './trail.js'

export function taskRecords(trail: AuditTrail): TaskObserver {
  return {
    created(task, origin) {
      trail.record({
        time: task.createdAt,
        event: AuditEvent.taskReceived,
        outcome: 'received',
        details: { contextId: task.contextId, parts: partCount(task) },
        ...who(task, origin),
      })
    },
    changed(task, { event }: StoredEvent, origin) {
      if (event.kind === 'status-update') {
        trail.record({
          time: event.status.timestamp,
          event: AuditEvent.stateChange,
          outcome: event.status.state,
          details: { final: event.final },
          ...who(task, origin),
        })
      } else if (!event.append || event.lastChunk) {
        trail.record({
          time: now(),
          event: AuditEvent.artifactDelivered,
          outcome: 'delivered',
          // In sorted key order, as the chain writes it (hash.ts), so it is written as it is.
          details: {
            append: event.append,
            artifactId: event.artifact.artifactId,
            lastChunk: event.lastChunk,
            parts: event.artifact.parts.length,
          },
          ...who(task, origin),
        })
      }
    },
  }
}

/** The task's owner is the caller, with its tenant; the origin adds the request's id. */
function who(task: Task, origin: WriteOrigin | undefined) {
  return {
    taskId: task.id,
    skillId: task.skillId,
    caller: task.owner,
    tenant: task.tenant,
    requestId: origin?.requestId,
  }
}

const partCount = (task: Task): number => task.history[0]?.parts.length ?? 0
