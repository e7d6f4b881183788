/** Every failure, as the brief's dialect reports it: `{error: {code, message, ...}}`. */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { RouteNotFoundError } from '../../../domain/errors.js'
import { seedErrorReply } from '../../../protocol/seed/errors.js'
import { toA2AError } from '../../errors.js'

export const seedErrorHandler =
  (bodyLimit: number) => (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const a2aError = toA2AError(error, { bodyLimit, contentType: request.headers['content-type'] })
    const { statusCode, body } = seedErrorReply(a2aError, request.id)
    if (statusCode >= 500) request.log.error({ err: error }, 'request failed')
    return reply.code(statusCode).send(body)
  }

export const seedNotFoundHandler = (request: FastifyRequest, reply: FastifyReply) => {
  const error = new RouteNotFoundError(request.method, request.url)
  const { statusCode, body } = seedErrorReply(error, request.id)
  return reply.code(statusCode).send(body)
}
