/**
 * A TaskStore that records what happens to tasks: `task-received` when a create creates, and
 * `state-change` or `artifact-delivered` for each change an apply (or applyAll) makes. It records after the store
 * has committed, so a record means the change happened; refused changes are not recorded.
 * Every other method (and any a store adds) passes through untouched.
 */
import type { StoredEvent, TaskChange, TaskEvent } from '../domain/events.js'
import type { Task } from '../domain/model.js'
import { now } from '../domain/model.js'
import type { TaskStore } from '../store/task-store.js'
import { currentContext } from './context.js'
import { AuditEvent } from './record.js'
import type { AuditTrail } from './trail.js'

export function auditedStore<S extends TaskStore>(store: S, trail: AuditTrail): S {
  const create = async (task: Task, first: TaskEvent) => {
    const result = await store.create(task, first)
    if (result.created) {
      trail.record({
        ...who(result.task),
        time: result.task.createdAt,
        event: AuditEvent.taskReceived,
        outcome: 'received',
        details: { contextId: result.task.contextId, parts: partCount(result.task) },
      })
    }
    return result
  }

  const recordEvent = (task: Task, { event }: StoredEvent) => {
    if (event.kind === 'status-update') {
      trail.record({
        ...who(task),
        time: event.status.timestamp,
        event: AuditEvent.stateChange,
        outcome: event.status.state,
        details: { final: event.final },
      })
    } else {
      trail.record({
        ...who(task),
        time: now(),
        event: AuditEvent.artifactDelivered,
        outcome: 'delivered',
        details: {
          artifactId: event.artifact.artifactId,
          parts: event.artifact.parts.length,
          append: event.append,
          lastChunk: event.lastChunk,
        },
      })
    }
  }

  const apply = async (taskId: string, change: TaskChange) => {
    const result = await store.apply(taskId, change)
    recordEvent(result.task, result.event)
    return result
  }

  const applyAll = async (taskId: string, changes: readonly TaskChange[]) => {
    const result = await store.applyAll(taskId, changes)
    for (const event of result.events) if (event) recordEvent(result.task, event)
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

/** The task's owner is the caller; the request (when there is one) adds its id and tenant. */
function who(task: Task) {
  const { requestId, caller, tenant } = currentContext()
  return {
    taskId: task.id,
    skillId: task.skillId,
    caller: task.owner ?? caller,
    tenant,
    requestId,
  }
}

const partCount = (task: Task): number => task.history[0]?.parts.length ?? 0
