/**
 * Folds a stream's items into what the caller has seen, so that each event reaches the caller
 * once. A task snapshot after the first (every frame of the seed dialect; the first item of a
 * resubscription) becomes the updates that lead to it from what the caller already has; a
 * status or artifact the caller has already seen is dropped.
 */
import type { Artifact, TaskStatus } from '../domain/model.js'
import { isFinal } from '../domain/state-machine.js'
import { mergeArtifact } from '../domain/task-change.js'
import type { ArtifactUpdateEvent, RemoteTask, StatusUpdateEvent, StreamEvent } from './model.js'
import { taskOfUpdate } from './stream-task.js'
import type { StreamItem } from './transport.js'

/** Two statuses are the same report when state, time and message content agree. */
function sameStatus(a: TaskStatus, b: TaskStatus): boolean {
  return (
    a.state === b.state &&
    a.timestamp === b.timestamp &&
    JSON.stringify(a.message?.parts) === JSON.stringify(b.message?.parts)
  )
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

export class TaskTracker {
  #task: RemoteTask | undefined
  #cursor: string | undefined
  #ended = false

  get taskId(): string | undefined {
    return this.#task?.id
  }

  /** Where the last item was, for a dialect that resumes by position. */
  get cursor(): string | undefined {
    return this.#cursor
  }

  /** The stream has said all it will: the task is terminal or waits for the caller. */
  get ended(): boolean {
    return this.#ended
  }

  /** The events this item adds to what the caller has seen (none when it repeats). */
  accept({ event, cursor }: StreamItem): StreamEvent[] {
    if (cursor !== undefined) this.#cursor = cursor
    switch (event.kind) {
      case 'message':
        if (this.#task === undefined) this.#ended = true
        return [event]
      case 'task':
        return this.#snapshot(event)
      case 'status-update':
        return this.#status(event)
      case 'artifact-update':
        return this.#artifact(event)
    }
  }

  #snapshot(task: RemoteTask): StreamEvent[] {
    const known = this.#task
    if (known === undefined) {
      this.#task = { ...task, artifacts: [...task.artifacts] }
      this.#ended = isFinal(task.status.state)
      return [task]
    }
    const events: StreamEvent[] = []
    for (const artifact of task.artifacts) {
      const before = known.artifacts.find((a) => a.artifactId === artifact.artifactId)
      const update = artifactDelta(before, artifact)
      if (update) events.push(...this.#artifact({ ...place(task), ...update, lastChunk: false }))
    }
    if (!sameStatus(known.status, task.status)) {
      events.push(
        ...this.#status({
          kind: 'status-update',
          ...place(task),
          status: task.status,
          final: isFinal(task.status.state),
        }),
      )
    }
    return events
  }

  #status(event: StatusUpdateEvent): StreamEvent[] {
    const task = this.#known(event)
    if (sameStatus(task.status, event.status)) return []
    task.status = event.status
    this.#ended = isFinal(event.status.state)
    return [event]
  }

  #artifact(event: ArtifactUpdateEvent): StreamEvent[] {
    const task = this.#known(event)
    const before = task.artifacts.find((a) => a.artifactId === event.artifact.artifactId)
    if (!event.append && before !== undefined && sameJson(before, event.artifact)) return []
    task.artifacts = mergeArtifact(task.artifacts, event.artifact, event.append)
    return [event]
  }

  /** A stream may open with an update rather than the task (some 0.3 agents do). */
  #known(event: StatusUpdateEvent | ArtifactUpdateEvent): RemoteTask {
    this.#task ??= taskOfUpdate(event)
    return this.#task
  }
}

const place = (task: RemoteTask) => ({ taskId: task.id, contextId: task.contextId })

/** How an artifact grew since the caller saw it: new parts appended, or a replacement. */
function artifactDelta(
  before: Artifact | undefined,
  after: Artifact,
): Pick<ArtifactUpdateEvent, 'kind' | 'artifact' | 'append'> | undefined {
  if (before === undefined) return { kind: 'artifact-update', artifact: after, append: false }
  if (sameJson(before, after)) return undefined
  const prefix = after.parts.slice(0, before.parts.length)
  if (after.parts.length > before.parts.length && sameJson(prefix, before.parts)) {
    const parts = after.parts.slice(before.parts.length)
    return { kind: 'artifact-update', artifact: { ...after, parts }, append: true }
  }
  return { kind: 'artifact-update', artifact: after, append: false }
}
