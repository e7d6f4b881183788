/** The A2A 1.0 JSON-RPC methods (`A2A-Version: 1.0`): decode params → operation → encode. */
import type { FastifyRequest } from 'fastify'
import {
  PushNotificationNotSupportedError,
  UnsupportedOperationError,
} from '../../../domain/errors.js'
import { rpcResult } from '../../../protocol/a2a/jsonrpc.js'
import {
  eventToV10,
  messageFromV10,
  sendResultToV10,
  taskToV10,
} from '../../../protocol/v10/codec.js'
import { v10RpcErrorReply } from '../../../protocol/v10/errors.js'
import {
  GetTaskRequest,
  ListTasksRequest,
  SendMessageRequest,
  TaskIdRequest,
} from '../../../protocol/v10/schemas.js'
import type { StreamItem } from '../../a2a/operations.js'
import { creatorOf, originOf, viewerOf } from '../../a2a/caller.js'
import { listTasksV10 } from '../../a2a/list-tasks.js'
import { parseProtoJson } from '../../a2a/params.js'
import { sendStream } from '../../a2a/sse.js'
import type { RpcContext, RpcMethod } from './method.js'
import { STREAMED } from './method.js'

/** SendMessageRequest → the engine's MessageInput. */
export function v10MessageInput(request: SendMessageRequest, from: FastifyRequest) {
  if (request.configuration?.taskPushNotificationConfig !== undefined) {
    throw new PushNotificationNotSupportedError()
  }
  const { message } = request
  return {
    message: messageFromV10(message),
    ...(message.taskId !== undefined && { taskId: message.taskId }),
    ...(message.contextId !== undefined && { contextId: message.contextId }),
    ...(request.metadata && { metadata: request.metadata }),
    ...creatorOf(from),
  }
}

export const v10StreamResponse = (item: StreamItem) =>
  'task' in item ? { task: taskToV10(item.task) } : eventToV10(item.event)

export function checkStreaming({ agent }: Pick<RpcContext, 'agent'>): void {
  if (!agent.capabilities.streaming) {
    throw new UnsupportedOperationError('This agent does not stream (capabilities.streaming)')
  }
}

const rpcStream = (context: RpcContext) => ({
  frame: (item: StreamItem) => rpcResult(context.id, v10StreamResponse(item)),
  error: (error: Parameters<typeof v10RpcErrorReply>[0]) =>
    v10RpcErrorReply(error, context.id).body,
})

const pushNotSupported: RpcMethod = () => Promise.reject(new PushNotificationNotSupportedError())

export const v10Methods: Record<string, RpcMethod> = {
  async SendMessage(context) {
    const request = parseProtoJson(SendMessageRequest, context.params)
    const { ops } = context
    const input = v10MessageInput(request, context.request)
    const blocking = request.configuration?.returnImmediately !== true
    const task = await ops.send(input, blocking)
    return { result: sendResultToV10(task, request.configuration?.historyLength) }
  },

  async SendStreamingMessage(context) {
    checkStreaming(context)
    const input = v10MessageInput(
      parseProtoJson(SendMessageRequest, context.params),
      context.request,
    )
    await sendStream(
      context.reply,
      (signal) => context.ops.stream(input, signal),
      rpcStream(context),
    )
    return STREAMED
  },

  async GetTask({ params, ops, caller }) {
    const { id, historyLength } = parseProtoJson(GetTaskRequest, params)
    return { result: taskToV10(await ops.get(id, viewerOf(caller)), { historyLength }) }
  },

  async ListTasks({ params, ops, caller }) {
    const request = parseProtoJson(ListTasksRequest, params)
    return { result: await listTasksV10(ops, request, viewerOf(caller)) }
  },

  async CancelTask({ params, ops, caller, request }) {
    const { id } = parseProtoJson(TaskIdRequest, params)
    return { result: taskToV10(await ops.cancel(id, viewerOf(caller), originOf(request))) }
  },

  async SubscribeToTask(context) {
    checkStreaming(context)
    const { id } = parseProtoJson(TaskIdRequest, context.params)
    await sendStream(
      context.reply,
      (signal) => context.ops.subscribe(id, viewerOf(context.caller), signal, 'GetTask'),
      rpcStream(context),
    )
    return STREAMED
  },

  CreateTaskPushNotificationConfig: pushNotSupported,
  GetTaskPushNotificationConfig: pushNotSupported,
  ListTaskPushNotificationConfigs: pushNotSupported,
  DeleteTaskPushNotificationConfig: pushNotSupported,

  GetExtendedAgentCard({ cards, caller }) {
    return Promise.resolve({ result: cards.render('1.0', caller) })
  },
}
