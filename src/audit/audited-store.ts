/**
 * A TaskStore that records what happens to tasks: `task-received` when a create creates, and
 * `state-change` or `artifact-delivered` for each change an apply (or applyAll) makes. It records
 * after the store has committed, so a record means the change happened; refused changes are not
 * recorded. A record names the task's owner and tenant, and the request the write came from
 * (the `origin` the engine hands down, also to a turn a worker takes from the queue). Every
 * other method (and any a store adds) passes through untouched.
 */
import type { StoredEvent, TaskChange, TaskEvent } from '../domain/events.js'
import type { Task } from '../domain/model.js'
import { now } from '../domain/model.js'
import type { TaskStore, WriteOrigin } from '../store/task-store.js'
import { AuditEvent } from './record.js'
import type { AuditTrail } from './trail.js'

export function auditedStore<S extends TaskStore>(store: S, trail: AuditTrail): S {
  const create = async (task: Task, first: TaskEvent, origin?: WriteOrigin) => {
    const result = await store.create(task, first, origin)
    if (result.created) {
      const { task: created } = result
      trail.record({
        time: created.createdAt,
        event: AuditEvent.taskReceived,
        outcome: 'received',
        details: { contextId: created.contextId, parts: partCount(created) },
        ...who(created, origin),
      })
    }
    return result
  }

  const recordEvent = (task: Task, { event }: StoredEvent, origin: WriteOrigin | undefined) => {
    if (event.kind === 'status-update') {
      trail.record({
        time: event.status.timestamp,
        event: AuditEvent.stateChange,
        outcome: event.status.state,
        details: { final: event.final },
        ...who(task, origin),
      })
    } else {
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
  }

  const apply = async (taskId: string, change: TaskChange, origin?: WriteOrigin) => {
    const result = await store.apply(taskId, change, origin)
    recordEvent(result.task, result.event, origin)
    return result
  }

  const applyAll = async (taskId: string, changes: readonly TaskChange[], origin?: WriteOrigin) => {
    const result = await store.applyAll(taskId, changes, origin)
    for (const event of result.events) if (event) recordEvent(result.task, event, origin)
    return result
  }

  const passed = new Map<PropertyKey, unknown>()
  return new Proxy(store, {
    get(target, property) {
      if (property === 'create') return create
      if (property === 'apply') return apply
      if (property === 'applyAll') return applyAll
      const value: unknown = Reflect.get(target, property, target)
      if (typeof value !== 'function') return value
      // Bound to the store itself, so methods using private fields keep working.
      let bound = passed.get(property)
      if (bound === undefined) {
        bound = (value as (...args: unknown[]) => unknown).bind(target)
        passed.set(property, bound)
      }
      return bound
    },
  })
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
