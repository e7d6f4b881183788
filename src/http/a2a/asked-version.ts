/**
 * The A2A version a request asks for: its `A2A-Version` header, or else its `A2A-Version` query
 * parameter (for clients that cannot set headers). Every route that reads a version reads it here.
 */
import type { FastifyRequest } from 'fastify'

export function askedVersionOf(
  request: Pick<FastifyRequest, 'headers' | 'query'>,
): string | string[] | undefined {
  const query = request.query as Record<string, string | string[] | undefined> | undefined
  return request.headers['a2a-version'] ?? query?.['A2A-Version']
}
