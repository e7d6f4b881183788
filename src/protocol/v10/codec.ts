/**
 * A2A 1.0 (ProtoJSON) ⇄ the internal model. Enums are SCREAMING_SNAKE with a type prefix, parts
 * are flat (`text | raw | url | data`), results and stream events are wrapped by member name.
 */
import type { TaskEvent } from '../../domain/events.js'
import { InvalidRequestError } from '../../domain/errors.js'
import type { Artifact, Message, Part, Task, TaskState, TaskStatus } from '../../domain/model.js'
import { isDirectReply } from '../a2a/direct-reply.js'
import { recentHistory } from '../a2a/history.js'
import type { V10Message, V10Part, V10TaskState } from './schemas.js'

const STATE_TO_V10: Record<TaskState, V10TaskState> = {
  submitted: 'TASK_STATE_SUBMITTED',
  working: 'TASK_STATE_WORKING',
  'input-required': 'TASK_STATE_INPUT_REQUIRED',
  'auth-required': 'TASK_STATE_AUTH_REQUIRED',
  completed: 'TASK_STATE_COMPLETED',
  failed: 'TASK_STATE_FAILED',
  canceled: 'TASK_STATE_CANCELED',
  rejected: 'TASK_STATE_REJECTED',
}

export const stateToV10 = (state: TaskState): V10TaskState => STATE_TO_V10[state]

/** The internal state a 1.0 state names; UNSPECIFIED names none. */
export function stateFromV10(state: V10TaskState): TaskState | undefined {
  const entry = Object.entries(STATE_TO_V10).find(([, v10]) => v10 === state)
  return entry?.[0] as TaskState | undefined
}

export function partFromV10(part: V10Part, index: number): Part {
  const metadata = part.metadata && { metadata: part.metadata }
  const file = {
    ...(part.filename !== undefined && { name: part.filename }),
    ...(part.mediaType !== undefined && { mimeType: part.mediaType }),
  }
  if (part.text !== undefined) return { kind: 'text', text: part.text, ...metadata }
  if (part.raw !== undefined)
    return { kind: 'file', file: { bytes: part.raw, ...file }, ...metadata }
  if (part.url !== undefined) return { kind: 'file', file: { uri: part.url, ...file }, ...metadata }
  const { data } = part
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new InvalidRequestError('must be a JSON object', `message.parts[${index}].data`)
  }
  return { kind: 'data', data: data as Record<string, unknown>, ...metadata }
}

export function messageFromV10(message: V10Message): Message {
  return {
    messageId: message.messageId,
    role: 'user',
    parts: message.parts.map(partFromV10),
    ...(message.metadata && { metadata: message.metadata }),
    ...(message.referenceTaskIds?.length && { referenceTaskIds: message.referenceTaskIds }),
  }
}

export function partToV10(part: Part): Record<string, unknown> {
  const metadata = part.metadata && { metadata: part.metadata }
  switch (part.kind) {
    case 'text':
      return { text: part.text, ...metadata }
    case 'data':
      return { data: part.data, ...metadata }
    case 'file': {
      const { bytes, uri, name, mimeType } = part.file
      return {
        ...(bytes !== undefined ? { raw: bytes } : { url: uri }),
        ...(name !== undefined && { filename: name }),
        ...(mimeType !== undefined && { mediaType: mimeType }),
        ...metadata,
      }
    }
  }
}

/** Where a message belongs: every message carries its context, and its task when there is one. */
interface Place {
  contextId: string
  taskId?: string
}

export const messageToV10 = (message: Message, place: Place) => ({
  messageId: message.messageId,
  contextId: place.contextId,
  ...(place.taskId !== undefined && { taskId: place.taskId }),
  role: message.role === 'agent' ? 'ROLE_AGENT' : 'ROLE_USER',
  parts: message.parts.map(partToV10),
  ...(message.metadata && { metadata: message.metadata }),
  ...(message.referenceTaskIds && { referenceTaskIds: message.referenceTaskIds }),
})

export const statusToV10 = (status: TaskStatus, place: Place) => ({
  state: stateToV10(status.state),
  ...(status.message && { message: messageToV10(status.message, place) }),
  timestamp: status.timestamp,
})

export const artifactToV10 = (artifact: Artifact) => ({
  artifactId: artifact.artifactId,
  ...(artifact.name !== undefined && { name: artifact.name }),
  ...(artifact.description !== undefined && { description: artifact.description }),
  parts: artifact.parts.map(partToV10),
  ...(artifact.metadata && { metadata: artifact.metadata }),
})

export interface TaskView {
  /** Unset: the whole history; 0: none; n: the n most recent messages. */
  historyLength?: number
  /** false leaves `artifacts` out entirely (ListTasks without includeArtifacts). */
  includeArtifacts?: boolean
}

export function taskToV10(task: Task, view: TaskView = {}) {
  const place = { contextId: task.contextId, taskId: task.id }
  const { historyLength, includeArtifacts = true } = view
  const history = recentHistory(task.history, historyLength)
  return {
    id: task.id,
    contextId: task.contextId,
    status: statusToV10(task.status, place),
    ...(includeArtifacts &&
      task.artifacts.length > 0 && { artifacts: task.artifacts.map(artifactToV10) }),
    ...(history.length > 0 && { history: history.map((m) => messageToV10(m, place)) }),
    ...(task.metadata && { metadata: task.metadata }),
  }
}

/** SendMessageResponse: the task, or the skill's direct reply (which belongs to no task). */
export function sendResultToV10(task: Task, historyLength?: number) {
  if (isDirectReply(task)) {
    return { message: messageToV10(task.status.message!, { contextId: task.contextId }) }
  }
  return { task: taskToV10(task, { historyLength }) }
}

/** A StreamResponse for one event of the task's log. */
export function eventToV10(event: TaskEvent) {
  const place = { contextId: event.contextId, taskId: event.taskId }
  if (event.kind === 'status-update') {
    return {
      statusUpdate: {
        taskId: event.taskId,
        contextId: event.contextId,
        status: statusToV10(event.status, place),
      },
    }
  }
  return {
    artifactUpdate: {
      taskId: event.taskId,
      contextId: event.contextId,
      artifact: artifactToV10(event.artifact),
      ...(event.append && { append: true }),
      ...(event.lastChunk && { lastChunk: true }),
    },
  }
}
