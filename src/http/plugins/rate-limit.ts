/**
 * Rate limits with @fastify/rate-limit: a budget of requests per window for each caller (the
 * authenticated subject, or the client address before authentication), in Redis when the
 * server runs on Redis (so every process shares one budget) and in memory otherwise.
 *
 * The check runs in `onRequest`, between authentication's two steps (see plugins/auth.ts): the
 * token is verified, so a caller spends its own budget, but a refused one is not thrown yet, so
 * failed attempts spend their address's budget (guessing tokens is limited too). It runs before
 * the body is read, so a refusal costs no parsing (and a JSON-RPC refusal has id null, as an
 * authentication failure has). Malformed requests count too. Probes are exempt; the public
 * Agent Cards have their own, per-address budget. A refusal is a RateLimitedError, answered by
 * each dialect's error table (429, `Retry-After`). When the counter store fails (Redis down),
 * requests pass: limits fail open, with one warning per outage.
 */
import rateLimit from '@fastify/rate-limit'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Redis } from 'ioredis'
import { RateLimitedError } from '../../domain/errors.js'
import { ownerKey } from '../../domain/caller.js'
import { redisFailure } from '../../store/redis/connection.js'
import { isDatabaseOutOfRange } from '../../store/redis/database.js'
import { callerOf } from '../a2a/caller.js'

export interface RateLimitOptions {
  /** Requests per caller per window, over every limited route. */
  max: number
  timeWindowMs: number
  /** Requests per client address per window to each public Agent Card; 0: no limit. */
  discoveryMax: number
  /** Opens the Redis connection that holds the counters (closed with the app); memory if absent. */
  redis?: () => Redis
  /** Prepended to every counter key in Redis. */
  keyPrefix?: string
  /** Told about every refused request; the audit trail hooks in here. */
  onLimited?: (request: FastifyRequest, hit: RateLimitHit) => void
}

export interface RateLimitHit {
  /** Whose budget ran out: `caller:<subject>`, `ip:<address>` or `card:ip:<address>`. */
  key: string
  limit: number
  retryAfterSeconds: number
}

/** Liveness and readiness answer orchestrators, however often they ask. */
const EXEMPT = new Set(['/healthz', '/readyz', '/metrics'])
const DISCOVERY = new Set(['/.well-known/agent.json', '/.well-known/agent-card.json'])
const DISCOVERY_KEY = 'card:'

/**
 * The default report of a refused request: one info line with the request id and the key. On
 * the app's logger: the routes every prober calls (the cards) log only warnings of their own.
 */
export function logRateLimitHit(request: FastifyRequest, hit: RateLimitHit): void {
  request.server.log.info(
    { reqId: request.id, requestId: request.id, rateLimitKey: hit.key, limit: hit.limit },
    'rate limit exceeded',
  )
}

const isDiscovery = (request: FastifyRequest): boolean =>
  DISCOVERY.has(request.routeOptions.url ?? '')

/** Whose budget a request spends: the card's per-address one, the caller's, or its address's. */
export function rateLimitKey(request: FastifyRequest): string {
  if (isDiscovery(request)) return `${DISCOVERY_KEY}ip:${request.ip}`
  const caller = callerOf(request)
  return caller === undefined ? `ip:${request.ip}` : `caller:${ownerKey(caller)}`
}

const rateLimits: FastifyPluginAsync<RateLimitOptions> = async (app, options) => {
  const { max, discoveryMax } = options
  const onLimited = options.onLimited ?? logRateLimitHit
  const redis = options.redis?.()
  if (redis) {
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect())
    })
  }

  let failing = false
  const storeFailed = (error: unknown) => {
    if (failing) return
    failing = true
    if (error instanceof Error && isDatabaseOutOfRange(error)) {
      app.log.warn(
        { redisError: error.message },
        'rate-limit store cannot use the database REDIS_URL names: limits are off until REDIS_URL is fixed and the process restarted',
      )
      return
    }
    app.log.warn(
      { err: redisFailure(error) },
      'rate-limit store unreachable: limits are off until it is back',
    )
  }
  const storeAnswered = () => {
    if (!failing) return
    failing = false
    app.log.info('rate-limit store reachable again: limits are enforced')
  }
  redis?.on('error', storeFailed)

  // `global: false`: the plugin adds no hook of its own; the hook below decides what is limited.
  await app.register(rateLimit, {
    global: false,
    max: (_request, key) => (key.startsWith(DISCOVERY_KEY) ? discoveryMax : max),
    timeWindow: options.timeWindowMs,
    keyGenerator: rateLimitKey,
    ...(redis && { redis, nameSpace: `${options.keyPrefix ?? ''}rate-limit:` }),
  })
  const check = app.createRateLimit()

  app.addHook('onRequest', async (request, reply) => {
    if (EXEMPT.has(request.routeOptions.url ?? '')) return
    if (discoveryMax === 0 && isDiscovery(request)) return
    let result: Awaited<ReturnType<typeof check>>
    try {
      result = await check(request)
    } catch (error) {
      storeFailed(error)
      return
    }
    storeAnswered()
    if (result.isAllowed) return
    const { key } = result
    const retryAfterSeconds = Math.max(1, result.ttlInSeconds)
    setHeaders(reply, result.max, result.remaining, retryAfterSeconds)
    if (!result.isExceeded) return
    reply.header('retry-after', retryAfterSeconds)
    onLimited(request, { key, limit: result.max, retryAfterSeconds })
    throw new RateLimitedError(result.max, retryAfterSeconds)
  })
}

function setHeaders(reply: FastifyReply, limit: number, remaining: number, reset: number): void {
  reply.header('x-ratelimit-limit', limit)
  reply.header('x-ratelimit-remaining', remaining)
  reply.header('x-ratelimit-reset', reset)
}

export default fp(rateLimits, { name: 'a2a-rate-limit', fastify: '5.x' })
