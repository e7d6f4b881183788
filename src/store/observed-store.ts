/**
 * A TaskStore that tells observers what it committed: `created` when a create creates, and
 * `changed` for each change an apply (or applyAll) makes, with the task after it and its event.
 * Observers hear of a write after the store has committed it, so a notice means the change
 * happened; refused changes are not reported. The audit trail (src/audit/task-records.ts) and
 * the metrics (src/metrics/) observe the engine's writes this way. Every other method (and any
 * a store adds) passes through untouched.
 */
import type { StoredEvent, TaskChange, TaskEvent } from '../domain/events.js'
import type { Task } from '../domain/model.js'
import type { TaskStore, WriteOrigin } from './task-store.js'

export interface TaskObserver {
  /** A create created `task`; `origin`: the request it came from. */
  created(task: Task, origin: WriteOrigin | undefined): void
  /** A change was stored: `task` as it left it (for applyAll, as the whole batch left it). */
  changed(task: Task, event: StoredEvent, origin: WriteOrigin | undefined): void
}

/** `store`, reporting its writes to every one of `observers`, in order. */
export function observedStore<S extends TaskStore>(store: S, observers: TaskObserver[]): S {
  if (observers.length === 0) return store
  const [only] = observers
  const observer = observers.length === 1 && only ? only : everyOne(observers)

  const create = async (task: Task, first: TaskEvent, origin?: WriteOrigin) => {
    const result = await store.create(task, first, origin)
    if (result.created) observer.created(result.task, origin)
    return result
  }

  const apply = async (taskId: string, change: TaskChange, origin?: WriteOrigin) => {
    const result = await store.apply(taskId, change, origin)
    observer.changed(result.task, result.event, origin)
    return result
  }

  const applyAll = async (taskId: string, changes: readonly TaskChange[], origin?: WriteOrigin) => {
    const result = await store.applyAll(taskId, changes, origin)
    for (const event of result.events) if (event) observer.changed(result.task, event, origin)
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

function everyOne(observers: TaskObserver[]): TaskObserver {
  return {
    created(task, origin) {
      for (const observer of observers) observer.created(task, origin)
    },
    changed(task, event, origin) {
      for (const observer of observers) observer.changed(task, event, origin)
    },
  }
}
