/** The A2A 0.3 JSON-RPC methods (no `A2A-Version`): decode params → operation → encode. */
import type { FastifyRequest } from 'fastify'
import { PushNotificationNotSupportedError } from '../../../domain/errors.js'
import { isFinal } from '../../../domain/state-machine.js'
import { rpcResult } from '../../../protocol/a2a/jsonrpc.js'
import {
  eventToV03,
  messageFromV03,
  sendResultToV03,
  taskToV03,
} from '../../../protocol/v03/codec.js'
import { v03RpcErrorReply } from '../../../protocol/v03/errors.js'
import { MessageSendParams, TaskIdParams, TaskQueryParams } from '../../../protocol/v03/schemas.js'
import type { StreamItem } from '../../a2a/operations.js'
import { creatorOf, originOf, viewerOf } from '../../a2a/caller.js'
import { parseParams } from '../../a2a/params.js'
import { sendStream } from '../../a2a/sse.js'
import type { RpcContext, RpcMethod } from './method.js'
import { STREAMED } from './method.js'
import { checkStreaming } from './v10-methods.js'

function messageInput(params: MessageSendParams, request: FastifyRequest) {
  if (params.configuration?.pushNotificationConfig !== undefined) {
    throw new PushNotificationNotSupportedError()
  }
  const { message } = params
  return {
    message: messageFromV03(message),
    ...(message.taskId !== undefined && { taskId: message.taskId }),
    ...(message.contextId !== undefined && { contextId: message.contextId }),
    ...(params.metadata && { metadata: params.metadata }),
    ...creatorOf(request),
  }
}

const streamResult = (item: StreamItem) =>
  'task' in item ? taskToV03(item.task) : eventToV03(item.event)

/**
 * 0.3 clients wait for `final: true` on a status update. A stream whose snapshot is already
 * final (a retry, an interrupted task) adds that status update after it.
 */
async function* withFinalStatus(items: AsyncIterable<StreamItem>): AsyncGenerator<StreamItem> {
  let last: StreamItem | undefined
  for await (const item of items) {
    yield item
    last = item
  }
  if (last && 'task' in last && isFinal(last.task.status.state)) {
    const { id, contextId, status } = last.task
    yield { event: { kind: 'status-update', taskId: id, contextId, status, final: true } }
  }
}

const rpcStream = (context: RpcContext) => ({
  frame: (item: StreamItem) => rpcResult(context.id, streamResult(item)),
  error: (error: Parameters<typeof v03RpcErrorReply>[0]) =>
    v03RpcErrorReply(error, context.id).body,
})

const pushNotSupported: RpcMethod = () => Promise.reject(new PushNotificationNotSupportedError())

export const v03Methods: Record<string, RpcMethod> = {
  async 'message/send'({ params, ops, request }) {
    const send = parseParams(MessageSendParams, params)
    // 0.3 leaves the default open; like the official SDKs, only `blocking: false` returns early.
    const blocking = send.configuration?.blocking !== false
    const task = await ops.send(messageInput(send, request), blocking)
    return { result: sendResultToV03(task, send.configuration?.historyLength) }
  },

  async 'message/stream'(context) {
    checkStreaming(context)
    const input = messageInput(parseParams(MessageSendParams, context.params), context.request)
    await sendStream(
      context.reply,
      async (signal) => withFinalStatus(await context.ops.stream(input, signal)),
      rpcStream(context),
    )
    return STREAMED
  },

  async 'tasks/get'({ params, ops, caller }) {
    const { id, historyLength } = parseParams(TaskQueryParams, params)
    return { result: taskToV03(await ops.get(id, viewerOf(caller)), historyLength) }
  },

  async 'tasks/cancel'({ params, ops, caller, request }) {
    const { id } = parseParams(TaskIdParams, params)
    return { result: taskToV03(await ops.cancel(id, viewerOf(caller), originOf(request))) }
  },

  async 'tasks/resubscribe'(context) {
    checkStreaming(context)
    const { id } = parseParams(TaskIdParams, context.params)
    await sendStream(
      context.reply,
      async (signal) =>
        withFinalStatus(
          await context.ops.subscribe(id, viewerOf(context.caller), signal, 'tasks/get'),
        ),
      rpcStream(context),
    )
    return STREAMED
  },

  'tasks/pushNotificationConfig/set': pushNotSupported,
  'tasks/pushNotificationConfig/get': pushNotSupported,
  'tasks/pushNotificationConfig/list': pushNotSupported,
  'tasks/pushNotificationConfig/delete': pushNotSupported,

  'agent/getAuthenticatedExtendedCard'({ cards, caller }) {
    return Promise.resolve({ result: cards.render('0.3', caller) })
  },
}
