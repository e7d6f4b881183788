/**
 * What every dialect's error handler does alike: turn what was thrown into an A2AError, render
 * it with the dialect's one error table, log it by what it means, tell a refused client when to
 * come back (`Retry-After` on a 429 or 503 that knows), and send it.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import type { A2AError } from '../domain/errors.js'
import { MethodNotAllowedError } from '../domain/errors.js'
import { logFailure } from '../domain/log-failure.js'
import { toA2AError } from './errors.js'
import { pathOf } from './route-methods.js'

/** A dialect's rendering of an error: the HTTP status and the body. */
export interface ErrorReply {
  statusCode: number
  body: unknown
}

export interface ErrorHandlerOptions {
  /** The body limit, named by the 413's message. */
  bodyLimit: number
  /** The reply's content type, when not Fastify's JSON default. */
  contentType?: string
  /** The body media type(s) a 415 asks for (default `application/json`). */
  accepts?: string
}

/** A Fastify error handler that answers in the shape `render` gives. */
export function dialectErrorHandler(
  render: (error: A2AError, request: FastifyRequest) => ErrorReply,
  { bodyLimit, contentType, accepts }: ErrorHandlerOptions,
) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const a2aError =
      wrongMethod(error, request) ??
      toA2AError(error, {
        bodyLimit,
        contentType: request.headers['content-type'],
        ...(accepts !== undefined && { accepts }),
      })
    const { statusCode, body } = render(a2aError, request)
    if (statusCode >= 500) {
      logFailure(
        request.log,
        a2aError,
        { refused: 'request refused', failed: 'request failed' },
        { err: error },
      )
    }
    const { allowed } = a2aError.details
    if (statusCode === 405 && Array.isArray(allowed)) reply.header('allow', allowed.join(', '))
    const retryAfter = a2aError.details.retryAfterSeconds
    if ((statusCode === 429 || statusCode === 503) && typeof retryAfter === 'number') {
      reply.header('retry-after', String(retryAfter))
    }
    reply.code(statusCode)
    if (contentType !== undefined) reply.type(contentType)
    return reply.send(body)
  }
}

/**
 * A path parameter refused because the path is another method's route without parameters
 * (`GET /tasks/send` reached `GET /tasks/:id` with the id "send"): the caller used the wrong
 * method, which is what it is told (405 and `Allow`), as for any path no route of its method
 * serves.
 */
function wrongMethod(error: FastifyError, request: FastifyRequest): A2AError | undefined {
  if (error.validationContext !== 'params') return undefined
  const path = pathOf(request)
  const allowed = request.server.routeMethods.allowed(path)
  if (allowed.length === 0 || allowed.includes(request.method)) return undefined
  return new MethodNotAllowedError(request.method, path, allowed)
}
