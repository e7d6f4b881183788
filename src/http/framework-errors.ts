/**
 * Errors outside any route: a URL Fastify cannot decode, a path no route serves, a hook that
 * refuses (no token, a spent rate limit) before a route was found. Each is answered in the
 * format of the dialect whose path the URL is under, like every other error, instead of
 * Fastify's own `{statusCode, error, message}` body or another dialect's shape.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import type { A2AError } from '../domain/errors.js'
import { MethodNotAllowedError, RouteNotFoundError } from '../domain/errors.js'
import { seedErrorReply } from '../protocol/seed/errors.js'
import { v10RestErrorReply } from '../protocol/v10/errors.js'
import type { ErrorReply } from './error-handler.js'
import { dialectErrorHandler } from './error-handler.js'
import { toA2AError } from './errors.js'
import { pathOf } from './route-methods.js'
import { JSON_RPC_PATH, REST_PATH } from './routes/a2a.js'
import { jsonRpcErrorReply } from './routes/jsonrpc/error-reply.js'

/** What choosing and filling in a dialect's error format reads of a request. */
export type RequestFacts = Pick<FastifyRequest, 'id' | 'headers' | 'query'> & {
  raw: { url?: string | undefined }
}

/** `error` as the dialect of the request's path renders it (the brief's, outside A2A's paths). */
export function errorReplyForPath(request: RequestFacts, error: A2AError): ErrorReply {
  const path = request.raw.url ?? ''
  // By prefix, as Fastify matches the REST binding's not-found handler.
  if (path.startsWith(REST_PATH)) return v10RestErrorReply(error)
  if (path.startsWith(JSON_RPC_PATH)) return jsonRpcErrorReply(request, error, null)
  return seedErrorReply(error, request.id)
}

/** Fastify's `frameworkErrors`: a URL it could not decode. */
export function frameworkErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const { statusCode, body } = errorReplyForPath(request, toA2AError(error, { bodyLimit: 0 }))
  void reply.code(statusCode).type('application/json; charset=utf-8').send(body)
}

/** The root error handler: what a hook throws before any dialect's route was found. */
export const rootErrorHandler = (bodyLimit: number) =>
  dialectErrorHandler((error, request) => errorReplyForPath(request, error), { bodyLimit })

/**
 * No route for this method and path: 405 with `Allow` when the path is served with other
 * methods, else 404, in every dialect (a JSON-RPC error object included).
 */
export function notFoundHandler(request: FastifyRequest, reply: FastifyReply) {
  return sendNoRoute(request, reply, (error) => errorReplyForPath(request, error).body)
}

/** Answers a request no route serves, with `render`'s body for the error (see notFoundHandler). */
export function sendNoRoute(
  request: FastifyRequest,
  reply: FastifyReply,
  render: (error: A2AError) => unknown,
) {
  const path = pathOf(request)
  const allowed = request.server.routeMethods.allowed(path)
  if (allowed.length > 0) {
    const error = new MethodNotAllowedError(request.method, path, allowed)
    reply.code(405).header('allow', allowed.join(', '))
    return reply.type('application/json; charset=utf-8').send(render(error))
  }
  const error = new RouteNotFoundError(request.method, request.url)
  return reply.code(404).type('application/json; charset=utf-8').send(render(error))
}
