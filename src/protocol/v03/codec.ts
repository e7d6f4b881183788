/** A2A 0.3 ⇄ the internal model: `kind` discriminators, lowercase states, `final` on streams. */
import type { TaskEvent } from '../../domain/events.js'
import type { Artifact, Message, Task, TaskStatus } from '../../domain/model.js'
import { isDirectReply } from '../a2a/direct-reply.js'
import { recentHistory } from '../a2a/history.js'
import type { V03Message } from './schemas.js'

export function messageFromV03(message: V03Message): Message {
  return {
    messageId: message.messageId,
    role: message.role,
    // A 0.3 part is the internal part: both discriminate on `kind`, with the same fields.
    parts: message.parts,
    ...(message.metadata && { metadata: message.metadata }),
    ...(message.referenceTaskIds?.length && { referenceTaskIds: message.referenceTaskIds }),
  }
}

interface Place {
  contextId: string
  taskId?: string
}

export const messageToV03 = (message: Message, place: Place) => ({
  kind: 'message' as const,
  messageId: message.messageId,
  role: message.role,
  parts: message.parts,
  contextId: place.contextId,
  ...(place.taskId !== undefined && { taskId: place.taskId }),
  ...(message.metadata && { metadata: message.metadata }),
  ...(message.referenceTaskIds && { referenceTaskIds: message.referenceTaskIds }),
})

export const statusToV03 = (status: TaskStatus, place: Place) => ({
  state: status.state,
  ...(status.message && { message: messageToV03(status.message, place) }),
  timestamp: status.timestamp,
})

export const artifactToV03 = (artifact: Artifact) => ({
  artifactId: artifact.artifactId,
  ...(artifact.name !== undefined && { name: artifact.name }),
  ...(artifact.description !== undefined && { description: artifact.description }),
  parts: artifact.parts,
  ...(artifact.metadata && { metadata: artifact.metadata }),
})

/** With the `historyLength` most recent messages (see recentHistory). */
export function taskToV03(task: Task, historyLength?: number) {
  const place = { contextId: task.contextId, taskId: task.id }
  const history = recentHistory(task.history, historyLength)
  return {
    kind: 'task' as const,
    id: task.id,
    contextId: task.contextId,
    status: statusToV03(task.status, place),
    ...(history.length > 0 && { history: history.map((m) => messageToV03(m, place)) }),
    ...(task.artifacts.length > 0 && { artifacts: task.artifacts.map(artifactToV03) }),
    ...(task.metadata && { metadata: task.metadata }),
  }
}

/** `message/send` answers with the bare Task, or the skill's direct reply as a bare Message. */
export function sendResultToV03(task: Task, historyLength?: number) {
  return isDirectReply(task)
    ? messageToV03(task.status.message!, { contextId: task.contextId })
    : taskToV03(task, historyLength)
}

/** A stream result for one event of the task's log; `final` marks the last one. */
export function eventToV03(event: TaskEvent) {
  const place = { contextId: event.contextId, taskId: event.taskId }
  if (event.kind === 'status-update') {
    return {
      kind: 'status-update' as const,
      taskId: event.taskId,
      contextId: event.contextId,
      status: statusToV03(event.status, place),
      final: event.final,
    }
  }
  return {
    kind: 'artifact-update' as const,
    taskId: event.taskId,
    contextId: event.contextId,
    artifact: artifactToV03(event.artifact),
    append: event.append,
    lastChunk: event.lastChunk,
  }
}
