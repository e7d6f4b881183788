/**
 * Who is calling, for scoping tasks to their owner. Until authentication lands, every caller is
 * anonymous and sees every task; an auth plugin sets `request.caller` (the token's subject).
 */
import type { FastifyRequest } from 'fastify'

export const callerOf = (request: FastifyRequest): string | undefined => {
  const caller = (request as FastifyRequest & { caller?: unknown }).caller
  return typeof caller === 'string' ? caller : undefined
}
