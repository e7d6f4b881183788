/**
 * A stream that fails after its first frame cannot answer with an error status: the status line
 * is long gone. It is logged here, as every other failure is: a refusal (Redis away, shutting
 * down) at `warn`, anything else, a fault, at `error`.
 */
import type { FastifyReply } from 'fastify'
import { ServiceUnavailableError } from '../domain/errors.js'

export function logStreamFailure(reply: FastifyReply, error: unknown): void {
  if (error instanceof ServiceUnavailableError) {
    reply.log.warn({ err: error }, `stream ended: ${error.message}`)
  } else {
    reply.log.error({ err: error }, 'stream failed')
  }
}
