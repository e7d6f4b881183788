/**
 * Errors Fastify raises before any route is found (a URL it cannot decode): answered in the
 * format of the dialect whose path the URL is under, like every other error, instead of
 * Fastify's own `{statusCode, error, message}` body.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { seedErrorReply } from '../protocol/seed/errors.js'
import { v10RestErrorReply, v10RpcErrorReply } from '../protocol/v10/errors.js'
import { toA2AError } from './errors.js'
import { JSON_RPC_PATH, REST_PATH } from './routes/a2a.js'

export function frameworkErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const a2aError = toA2AError(error, { bodyLimit: 0 })
  const path = request.raw.url ?? ''
  const { statusCode, body } = path.startsWith(REST_PATH)
    ? v10RestErrorReply(a2aError)
    : path.startsWith(JSON_RPC_PATH)
      ? v10RpcErrorReply(a2aError, null)
      : seedErrorReply(a2aError, request.id)
  void reply.code(statusCode).type('application/json; charset=utf-8').send(body)
}
