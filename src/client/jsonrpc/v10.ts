/** A2A 1.0 over JSON-RPC: PascalCase methods, `A2A-Version: 1.0`, ProtoJSON shapes. */
import { z } from 'zod'
import { Metadata } from '../../domain/model.js'
import { isFinal } from '../../domain/state-machine.js'
import type { Message, TaskStatus } from '../../domain/model.js'
import { partFromV10, partToV10, stateFromV10 } from '../../protocol/v10/codec.js'
import { V10Part, V10TaskState } from '../../protocol/v10/schemas.js'
import { decode } from '../decode.js'
import type { RemoteTask, StreamEvent } from '../model.js'
import type { RpcCodec } from './codec.js'

const Message10 = z.object({
  messageId: z.string(),
  contextId: z.string().optional(),
  taskId: z.string().optional(),
  role: z.enum(['ROLE_USER', 'ROLE_AGENT', 'ROLE_UNSPECIFIED']),
  parts: z.array(V10Part),
  metadata: Metadata.optional(),
  referenceTaskIds: z.array(z.string()).optional(),
})
const Status10 = z.object({
  state: V10TaskState,
  message: Message10.optional(),
  timestamp: z.string().optional(),
})
const Artifact10 = z.object({
  artifactId: z.string(),
  name: z.string().optional(),
  description: z.string().optional(),
  parts: z.array(V10Part),
  metadata: Metadata.optional(),
})
const Task10 = z.object({
  id: z.string(),
  contextId: z.string(),
  status: Status10,
  artifacts: z.array(Artifact10).optional(),
  history: z.array(Message10).optional(),
  metadata: Metadata.optional(),
})
const StatusUpdate10 = z.object({ taskId: z.string(), contextId: z.string(), status: Status10 })
const ArtifactUpdate10 = z.object({
  taskId: z.string(),
  contextId: z.string(),
  artifact: Artifact10,
  append: z.boolean().optional(),
  lastChunk: z.boolean().optional(),
})
const SendResponse10 = z.union([z.object({ task: Task10 }), z.object({ message: Message10 })])
const StreamResponse10 = z.union([
  z.object({ task: Task10 }),
  z.object({ message: Message10 }),
  z.object({ statusUpdate: StatusUpdate10 }),
  z.object({ artifactUpdate: ArtifactUpdate10 }),
])

const messageFrom = (message: z.infer<typeof Message10>): Message => ({
  messageId: message.messageId,
  role: message.role === 'ROLE_USER' ? 'user' : 'agent',
  parts: message.parts.map(partFromV10),
  ...(message.metadata && { metadata: message.metadata }),
  ...(message.referenceTaskIds?.length && { referenceTaskIds: message.referenceTaskIds }),
})

function statusFrom(status: z.infer<typeof Status10>): TaskStatus {
  const state = stateFromV10(status.state)
  if (state === undefined) throw new Error(`status.state ${status.state} names no state`)
  return {
    state,
    timestamp: status.timestamp ?? '',
    ...(status.message && { message: messageFrom(status.message) }),
  }
}

const artifactFrom = (artifact: z.infer<typeof Artifact10>) => ({
  artifactId: artifact.artifactId,
  ...(artifact.name !== undefined && artifact.name !== '' && { name: artifact.name }),
  ...(artifact.description !== undefined &&
    artifact.description !== '' && { description: artifact.description }),
  parts: artifact.parts.map(partFromV10),
  ...(artifact.metadata && { metadata: artifact.metadata }),
})

const taskFrom = (task: z.infer<typeof Task10>): RemoteTask => ({
  kind: 'task',
  id: task.id,
  contextId: task.contextId,
  status: statusFrom(task.status),
  artifacts: (task.artifacts ?? []).map(artifactFrom),
  history: (task.history ?? []).map(messageFrom),
  ...(task.metadata && { metadata: task.metadata }),
})

const replyFrom = (message: z.infer<typeof Message10>) => ({
  kind: 'message' as const,
  ...messageFrom(message),
  ...(message.contextId && { contextId: message.contextId }),
  ...(message.taskId && { taskId: message.taskId }),
})

function streamEventFrom(response: z.infer<typeof StreamResponse10>): StreamEvent {
  if ('task' in response) return taskFrom(response.task)
  if ('message' in response) return replyFrom(response.message)
  if ('statusUpdate' in response) {
    const { taskId, contextId } = response.statusUpdate
    const status = statusFrom(response.statusUpdate.status)
    return { kind: 'status-update', taskId, contextId, status, final: isFinal(status.state) }
  }
  const update = response.artifactUpdate
  return {
    kind: 'artifact-update',
    taskId: update.taskId,
    contextId: update.contextId,
    artifact: artifactFrom(update.artifact),
    append: update.append === true,
    lastChunk: update.lastChunk === true,
  }
}

export const v10Codec: RpcCodec = {
  version: '1.0',
  methods: {
    send: 'SendMessage',
    stream: 'SendStreamingMessage',
    get: 'GetTask',
    cancel: 'CancelTask',
    resubscribe: 'SubscribeToTask',
  },
  headers: { 'a2a-version': '1.0' },
  sendParams(request, blocking) {
    const { message } = request
    return {
      message: {
        messageId: message.messageId,
        role: 'ROLE_USER',
        parts: message.parts.map(partToV10),
        ...(request.taskId !== undefined && { taskId: request.taskId }),
        ...(request.contextId !== undefined && { contextId: request.contextId }),
        ...(message.metadata && { metadata: message.metadata }),
      },
      ...(blocking === false && { configuration: { returnImmediately: true } }),
      ...(request.metadata && { metadata: request.metadata }),
    }
  },
  sendResult: (result) =>
    decode(SendResponse10, result, 'The SendMessage result', (response) =>
      'task' in response ? taskFrom(response.task) : replyFrom(response.message),
    ),
  task: (result) => decode(Task10, result, 'The task', taskFrom),
  streamResult: (result) => decode(StreamResponse10, result, 'A stream event', streamEventFrom),
}
