/**
 * The JSON-RPC endpoint of A2A 1.0 and 0.3: one POST route, the version from `A2A-Version`
 * (header, or query parameter; missing means 0.3), the method from the body. Every failure,
 * from an unparsable body to an engine error, leaves as a JSON-RPC error in that version's shape.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { InvalidRequestError, MethodNotFoundError } from '../../../domain/errors.js'
import { idOf, isJsonObject, readCall, rpcResult } from '../../../protocol/a2a/jsonrpc.js'
import { dialectErrorHandler } from '../../error-handler.js'
import { callerOf } from '../../a2a/caller.js'
import type { ExtendedCards } from '../../a2a/extended-card.js'
import type { A2AOperations } from '../../a2a/operations.js'
import { v03Methods } from './v03-methods.js'
import { v10Methods } from './v10-methods.js'
import { jsonRpcErrorReply, versionOf } from './error-reply.js'
import { methodHint } from './method-hint.js'
import { useJsonBodyParser } from '../../json-body.js'

export interface JsonRpcRoutesOptions {
  path: string
  bodyLimit: number
  ops: A2AOperations
  cards: ExtendedCards
}

const METHODS = { '1.0': v10Methods, '0.3': v03Methods } as const

const jsonRpc: FastifyPluginAsync<JsonRpcRoutesOptions> = async (app, options) => {
  // An empty body reaches readCall as undefined: not a JSON-RPC request (-32600).
  useJsonBodyParser(app, { contentTypes: ['application/json', 'application/a2a+json'] })

  app.setErrorHandler(
    dialectErrorHandler((error, request) => jsonRpcErrorReply(request, error, idOf(request.body)), {
      bodyLimit: options.bodyLimit,
    }),
  )

  // Clients join the card's URL and "/" in both ways; both reach the endpoint.
  app.post(`${options.path}/`, { sse: 'manual' }, (request, reply) => endpoint(request, reply))
  app.post(options.path, { sse: 'manual' }, (request, reply) => endpoint(request, reply))

  async function endpoint(request: FastifyRequest, reply: FastifyReply) {
    const version = versionOf(request)
    const call = readCall(request.body)
    const methods = METHODS[version]
    // Own names only: `valueOf` or `constructor` is no method of ours.
    const method = Object.hasOwn(methods, call.method) ? methods[call.method] : undefined
    if (!method) {
      throw new MethodNotFoundError(call.method, methodHint(METHODS, request, version, call.method))
    }
    // Every A2A method takes its params by name (null or none: no params).
    if (call.params != null && !isJsonObject(call.params)) {
      throw new InvalidRequestError('params must be an object')
    }
    const answer = await method({
      id: call.id,
      params: call.params,
      request,
      reply,
      ops: options.ops,
      agent: app.agent,
      caller: callerOf(request),
      cards: options.cards,
    }).catch((error: unknown) => {
      throw call.params == null ? missingParams(error, call.method) : error
    })
    // Not `return reply`: a reply is a thenable that settles when the response ends, which an
    // SSE response does only after this handler returns.
    if ('streamed' in answer) return undefined
    reply.type('application/json; charset=utf-8')
    return rpcResult(call.id, answer.result)
  }
}

export default jsonRpc

/**
 * A method that needs params, called without any: its schema's first complaint (`id: is
 * required`) would read as the envelope's `id`, which the call has. Said as the params missing.
 */
function missingParams(error: unknown, method: string): unknown {
  if (!(error instanceof InvalidRequestError) || error.field === undefined) return error
  return new InvalidRequestError(`is missing; ${method} needs params (${error.message})`, 'params')
}
