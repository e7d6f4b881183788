/** A2A 0.3 over JSON-RPC: slash methods, no version header, `kind` discriminators. */
import { z } from 'zod'
import type { Message } from '../../domain/model.js'
import { Metadata, TaskState } from '../../domain/model.js'
import { V03Part } from '../../protocol/v03/schemas.js'
import { decode } from '../decode.js'
import { InvalidAgentResponseError } from '../errors.js'
import type { RemoteTask, StreamEvent } from '../model.js'
import type { RpcCodec } from './codec.js'

const Message03 = z.object({
  kind: z.literal('message'),
  messageId: z.string(),
  contextId: z.string().optional(),
  taskId: z.string().optional(),
  role: z.enum(['user', 'agent']),
  parts: z.array(V03Part),
  metadata: Metadata.optional(),
  referenceTaskIds: z.array(z.string()).optional(),
})
const Status03 = z.object({
  state: TaskState,
  message: Message03.optional(),
  timestamp: z.string().optional(),
})
const Artifact03 = z.object({
  artifactId: z.string(),
  name: z.string().optional(),
  description: z.string().optional(),
  parts: z.array(V03Part),
  metadata: Metadata.optional(),
})
const Task03 = z.object({
  kind: z.literal('task'),
  id: z.string(),
  contextId: z.string(),
  status: Status03,
  artifacts: z.array(Artifact03).optional(),
  history: z.array(Message03).optional(),
  metadata: Metadata.optional(),
})
const StatusUpdate03 = z.object({
  kind: z.literal('status-update'),
  taskId: z.string(),
  contextId: z.string(),
  status: Status03,
  final: z.boolean().optional(),
})
const ArtifactUpdate03 = z.object({
  kind: z.literal('artifact-update'),
  taskId: z.string(),
  contextId: z.string(),
  artifact: Artifact03,
  append: z.boolean().optional(),
  lastChunk: z.boolean().optional(),
})
const Result03 = z.discriminatedUnion('kind', [Task03, Message03, StatusUpdate03, ArtifactUpdate03])

// A 0.3 part is the internal part: both discriminate on `kind`, with the same fields.
const messageFrom = ({
  messageId,
  role,
  parts,
  metadata,
  referenceTaskIds,
}: z.infer<typeof Message03>): Message => ({
  messageId,
  role,
  parts,
  ...(metadata && { metadata }),
  ...(referenceTaskIds?.length && { referenceTaskIds }),
})

const statusFrom = (status: z.infer<typeof Status03>) => ({
  state: status.state,
  timestamp: status.timestamp ?? '',
  ...(status.message && { message: messageFrom(status.message) }),
})

const taskFrom = (task: z.infer<typeof Task03>): RemoteTask => ({
  kind: 'task',
  id: task.id,
  contextId: task.contextId,
  status: statusFrom(task.status),
  artifacts: task.artifacts ?? [],
  history: (task.history ?? []).map(messageFrom),
  ...(task.metadata && { metadata: task.metadata }),
})

function eventFrom(result: z.infer<typeof Result03>): StreamEvent {
  switch (result.kind) {
    case 'task':
      return taskFrom(result)
    case 'message':
      return {
        kind: 'message',
        ...messageFrom(result),
        ...(result.contextId && { contextId: result.contextId }),
        ...(result.taskId && { taskId: result.taskId }),
      }
    case 'status-update':
      return {
        kind: 'status-update',
        taskId: result.taskId,
        contextId: result.contextId,
        status: statusFrom(result.status),
        final: result.final === true,
      }
    case 'artifact-update':
      return {
        kind: 'artifact-update',
        taskId: result.taskId,
        contextId: result.contextId,
        artifact: result.artifact,
        append: result.append === true,
        lastChunk: result.lastChunk === true,
      }
  }
}

export const v03Codec: RpcCodec = {
  version: '0.3',
  methods: {
    send: 'message/send',
    stream: 'message/stream',
    get: 'tasks/get',
    cancel: 'tasks/cancel',
    resubscribe: 'tasks/resubscribe',
  },
  headers: {},
  sendParams(request, blocking) {
    const { message } = request
    return {
      message: {
        kind: 'message',
        messageId: message.messageId,
        role: 'user',
        parts: message.parts,
        ...(request.taskId !== undefined && { taskId: request.taskId }),
        ...(request.contextId !== undefined && { contextId: request.contextId }),
        ...(message.metadata && { metadata: message.metadata }),
      },
      ...(blocking === false && { configuration: { blocking: false } }),
      ...(request.metadata && { metadata: request.metadata }),
    }
  },
  sendResult(result) {
    const event = decode(Result03, result, 'The message/send result', eventFrom)
    if (event.kind !== 'task' && event.kind !== 'message') {
      throw new InvalidAgentResponseError(`message/send answered with a ${event.kind}`)
    }
    return event
  },
  task: (result) => decode(Task03, result, 'The task', taskFrom),
  streamResult: (result) => decode(Result03, result, 'A stream event', eventFrom),
}
