/**
 * How the server's log writes an error: as pino does, but an outage or a refusal (Redis
 * unreachable, the task store unavailable) without its stack. It is expected, its message says
 * what happened, and its stack is the Redis client's, the same on every line of an outage.
 */
import { stdSerializers } from 'pino'
import { ServiceUnavailableError } from './domain/errors.js'
import { redisUnavailable } from './store/redis/connection.js'

export function errSerializer(error: Error): Record<string, unknown> {
  const serialized = stdSerializers.err(error)
  if (!(error instanceof ServiceUnavailableError) && !redisUnavailable(error)) return serialized
  const { stack: _stack, ...withoutStack } = serialized
  return withoutStack
}
