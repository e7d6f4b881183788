/** Every failure, as the brief's dialect reports it: `{error: {code, message, ...}}`. */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { RouteNotFoundError } from '../../../domain/errors.js'
import { seedErrorReply } from '../../../protocol/seed/errors.js'
import { dialectErrorHandler } from '../../error-handler.js'

export const seedErrorHandler = (bodyLimit: number) =>
  dialectErrorHandler((error, request) => seedErrorReply(error, request.id), { bodyLimit })

export const seedNotFoundHandler = (request: FastifyRequest, reply: FastifyReply) => {
  const error = new RouteNotFoundError(request.method, request.url)
  const { statusCode, body } = seedErrorReply(error, request.id)
  return reply.code(statusCode).send(body)
}
