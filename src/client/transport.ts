/** One dialect's way of carrying the operations; the client picks one from the Agent Card. */
import type { Message } from '../domain/model.js'
import type { CallOptions } from './http.js'
import type { RemoteTask, SendResult, StreamEvent } from './model.js'

export type Dialect = 'seed' | 'jsonrpc-1.0' | 'jsonrpc-0.3'

export interface SendRequest {
  message: Message
  /** The seed dialect's client-chosen id of a new task; the task to continue otherwise. */
  taskId?: string
  contextId?: string
  metadata?: Record<string, unknown>
}

export interface SendOptions extends CallOptions {
  /** false asks the agent to answer at once, before the task is done (A2A 0.2+ only). */
  blocking?: boolean
}

/** A stream event, with the position to resume after when the dialect has one (SSE `id:`). */
export interface StreamItem {
  event: StreamEvent
  cursor?: string
}

export interface Transport {
  readonly dialect: Dialect
  /**
   * Whether `resubscribe` sends the request again (seed) rather than only following the task
   * (JSON-RPC). Only then may a stream that failed before its first item resume: otherwise the
   * message may never have reached the agent.
   */
  readonly resumeRepeatsRequest: boolean
  send(request: SendRequest, options: SendOptions): Promise<SendResult>
  /** Fails before the first item when the agent refuses the request. */
  stream(request: SendRequest, options: CallOptions): AsyncIterable<StreamItem>
  /**
   * Follows a task again after a dropped stream: from `cursor` where the dialect resumes by
   * position, from the task's current state otherwise (the first item is then the task).
   */
  resubscribe(
    taskId: string,
    from: { cursor?: string; request: SendRequest },
    options: CallOptions,
  ): AsyncIterable<StreamItem>
  get(taskId: string, options: CallOptions & { historyLength?: number }): Promise<RemoteTask>
  cancel(taskId: string, options: CallOptions): Promise<RemoteTask>
  /** Answers a task that waits for input. */
  continue(
    task: { id: string; contextId: string },
    request: SendRequest,
    options: SendOptions,
  ): Promise<SendResult>
}
