/**
 * What happens to a task, as an append-only log. Every change the TaskStore applies writes one
 * event; streams replay and follow these.
 */
import type { Artifact, Message, TaskState, TaskStatus } from './model.js'

export interface StatusUpdateEvent {
  kind: 'status-update'
  taskId: string
  contextId: string
  status: TaskStatus
  /** The task reached a terminal or interrupted state: a stream of this task ends here. */
  final: boolean
}

export interface ArtifactUpdateEvent {
  kind: 'artifact-update'
  taskId: string
  contextId: string
  artifact: Artifact
  /** The parts extend the artifact with the same id instead of replacing it. */
  append: boolean
  lastChunk: boolean
}

export type TaskEvent = StatusUpdateEvent | ArtifactUpdateEvent

/** An event as the log holds it: `id` is opaque and increases within one task's log. */
export interface StoredEvent {
  id: string
  event: TaskEvent
}

/** A change the store applies to one task atomically, together with the event it writes. */
export type TaskChange =
  | {
      kind: 'status'
      status: TaskStatus
      appendToHistory?: Message[]
      /** Narrows the state machine: the change applies only from these states. */
      from?: readonly TaskState[]
    }
  | { kind: 'artifact'; artifact: Artifact; append: boolean; lastChunk: boolean }

export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`)
}
