/**
 * The task a stream has shown so far, from its events: the last snapshot, with the status and
 * artifact updates since. A stream may open with an update rather than the task (some 0.3
 * agents do): the task then starts from what the update names.
 */
import { mergeArtifact } from '../domain/task-change.js'
import type { ArtifactUpdateEvent, RemoteTask, StatusUpdateEvent, StreamEvent } from './model.js'

/** The task an update names, before any snapshot of it: submitted, nothing else known. */
export function taskOfUpdate(event: StatusUpdateEvent | ArtifactUpdateEvent): RemoteTask {
  return {
    kind: 'task',
    id: event.taskId,
    contextId: event.contextId,
    status: { state: 'submitted', timestamp: '' },
    artifacts: [],
    history: [],
  }
}

/** `task` (undefined before the first event) with `event` applied; a direct reply changes nothing. */
export function followTask(
  task: RemoteTask | undefined,
  event: StreamEvent,
): RemoteTask | undefined {
  if (event.kind === 'task') return event
  if (event.kind === 'message') return task
  const known = task ?? taskOfUpdate(event)
  return event.kind === 'status-update'
    ? { ...known, status: event.status }
    : { ...known, artifacts: mergeArtifact(known.artifacts, event.artifact, event.append) }
}
