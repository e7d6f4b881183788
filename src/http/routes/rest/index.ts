/**
 * The A2A 1.0 HTTP+JSON binding under its own base path, each route also under an optional
 * `/{tenant}` prefix. Errors are google.rpc.Status bodies with the HTTP status of 1.0's table.
 * Only 1.0 is served here: a missing `A2A-Version` is taken as 1.0 (there is no 0.3 REST
 * binding at this path to confuse it with); any other version is VersionNotSupported.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import {
  InvalidRequestError,
  PushNotificationNotSupportedError,
  MethodNotAllowedError,
  VersionNotSupportedError,
} from '../../../domain/errors.js'
import { sendResultToV10, taskToV10 } from '../../../protocol/v10/codec.js'
import { v10RestErrorReply } from '../../../protocol/v10/errors.js'
import { GetTaskQuery, ListTasksQuery, SendMessageRequest } from '../../../protocol/v10/schemas.js'
import { useJsonBodyParser } from '../../json-body.js'
import { dialectErrorHandler } from '../../error-handler.js'
import { sendNoRoute } from '../../framework-errors.js'
import { askedVersionOf } from '../../a2a/asked-version.js'
import { callerOf, originOf, viewerOf } from '../../a2a/caller.js'
import type { ExtendedCards } from '../../a2a/extended-card.js'
import { listTasksV10 } from '../../a2a/list-tasks.js'
import type { A2AOperations } from '../../a2a/operations.js'
import { parseProtoJson } from '../../a2a/params.js'
import { sendStream } from '../../a2a/sse.js'
import { checkStreaming, v10MessageInput, v10StreamResponse } from '../jsonrpc/v10-methods.js'
import { pathOf } from '../../route-methods.js'

export interface RestRoutesOptions {
  bodyLimit: number
  ops: A2AOperations
  cards: ExtendedCards
}

const A2A_JSON = 'application/a2a+json'

/**
 * Answers in `application/json`, which the binding's §11.1 requires (the official TCK holds a
 * server to it, HTTP_JSON-SVC-001), or in `application/a2a+json` to a caller that names that
 * type, in its Accept or as the type of what it sent (1.0.1's examples use it).
 */
function send<T>(reply: FastifyReply, body: T): T {
  const { accept = '', 'content-type': contentType = '' } = reply.request.headers
  const type =
    accept.includes(A2A_JSON) || contentType.includes(A2A_JSON) ? A2A_JSON : 'application/json'
  reply.type(`${type}; charset=utf-8`)
  return body
}

/** `GET|POST /tasks/{id}:verb`: find-my-way has no route for a colon after a parameter. */
function splitVerb(idAndVerb: string): { id: string; verb: string | undefined } {
  const at = idAndVerb.lastIndexOf(':')
  return at === -1
    ? { id: idAndVerb, verb: undefined }
    : { id: idAndVerb.slice(0, at), verb: idAndVerb.slice(at + 1) }
}

/** The operations `tasks/{id}:verb` names, and the methods each is served by. */
const VERB_METHODS = new Map<string, readonly string[]>([
  ['cancel', ['POST']],
  ['subscribe', ['GET', 'POST']],
])

/**
 * The task id and operation of `tasks/{id}[:verb]`. An operation this method does not serve is
 * 405, as any other wrong method is (a HEAD of `:subscribe` opens no stream); a POST must name
 * one. An unknown operation is a bad request naming the ones there are, as is no task id
 * (`tasks/:cancel`).
 */
function taskOperation(request: FastifyRequest<{ Params: { id: string } }>) {
  const { id, verb } = splitVerb(request.params.id)
  const methods = verb === undefined ? ['GET', 'HEAD'] : VERB_METHODS.get(verb)
  if (!methods) {
    throw new InvalidRequestError(`unknown operation ":${verb}"; use :cancel or :subscribe`)
  }
  if (!methods.includes(request.method)) {
    throw new MethodNotAllowedError(request.method, pathOf(request), methods)
  }
  if (id === '') throw new InvalidRequestError('is empty; name the task', 'id')
  return { id, verb }
}

function routes(app: FastifyInstance, prefix: string, options: RestRoutesOptions): void {
  const { ops, cards } = options
  const streamEncoding = {
    frame: v10StreamResponse,
    error: (error: Parameters<typeof v10RestErrorReply>[0]) => v10RestErrorReply(error).body,
  }

  /** `:subscribe`, by GET or POST. Resolves with nothing: the stream is the answer. */
  async function subscribe(request: FastifyRequest, reply: FastifyReply, id: string) {
    checkStreaming(app)
    await sendStream(
      reply,
      (signal) => ops.subscribe(id, viewerOf(callerOf(request)), signal, 'GET /tasks/{id}'),
      streamEncoding,
    )
    return undefined
  }

  app.post(`${prefix}/message::send`, async (request, reply) => {
    const body = parseProtoJson(SendMessageRequest, request.body)
    const input = v10MessageInput(body, request)
    const task = await ops.send(input, body.configuration?.returnImmediately !== true)
    return send(reply, sendResultToV10(task, body.configuration?.historyLength))
  })

  app.post(`${prefix}/message::stream`, { sse: 'manual' }, async (request, reply) => {
    checkStreaming(app)
    const input = v10MessageInput(parseProtoJson(SendMessageRequest, request.body), request)
    // Not `return reply`: the reply thenable settles only when the stream has ended.
    await sendStream(reply, (signal) => ops.stream(input, signal), streamEncoding)
  })

  app.get(`${prefix}/tasks`, async (request, reply) => {
    const query = parseProtoJson(ListTasksQuery, request.query)
    return send(reply, await listTasksV10(ops, query, viewerOf(callerOf(request))))
  })

  app.get<{ Params: { id: string } }>(
    `${prefix}/tasks/:id`,
    { sse: 'manual' },
    async (request, reply) => {
      const { id, verb } = taskOperation(request)
      if (verb === 'subscribe') return subscribe(request, reply, id)
      const { historyLength } = parseProtoJson(GetTaskQuery, request.query)
      return send(
        reply,
        taskToV10(await ops.get(id, viewerOf(callerOf(request))), { historyLength }),
      )
    },
  )

  app.post<{ Params: { id: string } }>(
    `${prefix}/tasks/:id`,
    { sse: 'manual' },
    async (request, reply) => {
      const { id, verb } = taskOperation(request)
      if (verb === 'subscribe') return subscribe(request, reply, id)
      return send(
        reply,
        taskToV10(await ops.cancel(id, viewerOf(callerOf(request)), originOf(request))),
      )
    },
  )

  const pushNotSupported = async () => {
    throw new PushNotificationNotSupportedError()
  }
  app.post(`${prefix}/tasks/:id/pushNotificationConfigs`, pushNotSupported)
  app.get(`${prefix}/tasks/:id/pushNotificationConfigs`, pushNotSupported)
  app.get(`${prefix}/tasks/:id/pushNotificationConfigs/:configId`, pushNotSupported)
  app.delete(`${prefix}/tasks/:id/pushNotificationConfigs/:configId`, pushNotSupported)

  app.get(`${prefix}/extendedAgentCard`, async (request, reply) =>
    send(reply, cards.render('1.0', callerOf(request))),
  )
}

const rest: FastifyPluginAsync<RestRoutesOptions> = async (app, options) => {
  // A POST without a body (`:cancel`, `:subscribe`) is fine here, whatever its Content-Type:
  // these routes declare no body schema (each reads its body with parseProtoJson).
  useJsonBodyParser(app, { contentTypes: ['application/json', A2A_JSON] })

  app.addHook('onRequest', async (request) => {
    const version = askedVersionOf(request)
    const given = (Array.isArray(version) ? version[0] : version)?.trim()
    if (given && !/^1\.0(\.\d+)?$/.test(given)) throw new VersionNotSupportedError(given, ['1.0'])
  })

  app.setErrorHandler(
    dialectErrorHandler(v10RestErrorReply, {
      bodyLimit: options.bodyLimit,
      contentType: 'application/json; charset=utf-8',
      accepts: `application/json (or ${A2A_JSON})`,
    }),
  )

  app.setNotFoundHandler((request, reply) =>
    sendNoRoute(request, reply, (error) => v10RestErrorReply(error).body),
  )

  routes(app, '', options)
  routes(app, '/:tenant', options)
}

export default rest
