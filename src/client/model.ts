/**
 * What the client hands its caller, the same for every dialect: tasks, messages, and stream
 * events built from the server's internal model (parts with `kind`, lowercase states).
 */
import type { ArtifactUpdateEvent, StatusUpdateEvent } from '../domain/events.js'
import type { Artifact, Message, Part, TaskStatus } from '../domain/model.js'

export type { ArtifactUpdateEvent, StatusUpdateEvent }

/** A task as the agent reported it. */
export interface RemoteTask {
  kind: 'task'
  id: string
  contextId: string
  status: TaskStatus
  artifacts: Artifact[]
  /** The conversation so far, oldest first, as far as the agent sent it. */
  history: Message[]
  metadata?: Record<string, unknown>
}

/** An agent's direct reply: a message that belongs to no task (A2A 0.2+). */
export type RemoteMessage = Message & { kind: 'message'; contextId?: string; taskId?: string }

/** What a blocking send answers. */
export type SendResult = RemoteTask | RemoteMessage

/**
 * One event of a stream: the task (or the direct reply) first, then status and artifact
 * updates. A status update's `final` is true when the task is terminal or waits for the caller.
 */
export type StreamEvent = RemoteTask | RemoteMessage | StatusUpdateEvent | ArtifactUpdateEvent

/** What the caller sends: text, data, or parts of its own, optionally for one skill. */
export interface SendInput {
  text?: string
  data?: Record<string, unknown>
  parts?: Part[]
  /** The skill to run; the card must declare it. */
  skill?: string
  /** Continue a conversation (A2A `contextId`, the seed dialect's `sessionId`). */
  contextId?: string
  /** Seed dialect only: the task id to create (a UUID); one is generated when absent. */
  taskId?: string
  metadata?: Record<string, unknown>
}
