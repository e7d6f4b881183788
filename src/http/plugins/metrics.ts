/**
 * Prometheus metrics: `GET /metrics` (public, like the probes, unless METRICS_TOKEN is set: then
 * it needs that bearer token; either way serve it to your network only),
 * every request's route, status and duration, the errors by their A2A code, and the refusals
 * (401, 403, 429) as the errors that carry them pass. `app.metrics` is undefined when
 * METRICS_ENABLED is false; then nothing is counted and /metrics is not served.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import {
  AuthenticationError,
  CapReachedError,
  PermissionDeniedError,
  RateLimitedError,
} from '../../domain/errors.js'
import type { Metrics } from '../../metrics/metrics.js'
import { METRICS_CONTENT_TYPE } from '../../metrics/metrics.js'
import { toA2AError } from '../errors.js'

export interface MetricsPluginOptions {
  metrics: Metrics | undefined
  /** METRICS_TOKEN: the bearer token /metrics needs; none when absent. */
  token?: string
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics | undefined
  }
}

/** The route label of a request that matched no route: never its path (unbounded). */
export const UNMATCHED_ROUTE = 'unmatched'

const metricsPlugin: FastifyPluginAsync<MetricsPluginOptions> = async (app, { metrics, token }) => {
  app.decorate('metrics', metrics)
  if (metrics === undefined) return

  // A route's label is its path as declared, with a literal ':' (`/message::send`, escaped for
  // the router) written once: `/a2a/rest/message:send`. Made once per route.
  const labels = new Map<string, string>()
  const labelOf = (url: string): string => {
    let label = labels.get(url)
    if (label === undefined) labels.set(url, (label = url.replaceAll('::', ':')))
    return label
  }

  // A callback hook: an async one costs a promise per request.
  app.addHook('onResponse', (request, reply, done) => {
    const url = request.routeOptions.url
    const route = url === undefined ? UNMATCHED_ROUTE : labelOf(url)
    metrics.request(request.method, route, reply.statusCode, reply.elapsedTime / 1000)
    done()
  })

  app.addHook('onError', async (request, _reply, error) => {
    // By the A2A code the caller gets, in whichever dialect: a JSON-RPC error is an HTTP 200.
    metrics.error(toA2AError(error, { bodyLimit: 0 }).code)
    if (error instanceof AuthenticationError) metrics.authFailure(error.reason)
    else if (error instanceof PermissionDeniedError) metrics.permissionDenied()
    else if (error instanceof RateLimitedError) metrics.limited(limitOf(request))
    else if (error instanceof CapReachedError) metrics.limited(error.cap)
  })

  const scraper = token === undefined ? undefined : scraperCheck(token)
  app.get('/metrics', { logLevel: 'warn', config: { public: true } }, async (request, reply) => {
    scraper?.(request.headers.authorization)
    return reply.type(METRICS_CONTENT_TYPE).send(await metrics.scrape())
  })
}

const METRICS_REALM = 'metrics'

/**
 * Throws unless `authorization` is `Bearer <token>`. The two are compared as sha256 digests,
 * in constant time: neither the length nor a prefix of the token shows in the answer's timing.
 */
function scraperCheck(token: string): (authorization: string | undefined) => void {
  const expected = digest(`Bearer ${token}`)
  return (authorization) => {
    if (authorization !== undefined && timingSafeEqual(digest(authorization), expected)) return
    const message =
      authorization === undefined
        ? 'GET /metrics needs the token in METRICS_TOKEN: send Authorization: Bearer <token>'
        : 'The token is not the one in METRICS_TOKEN'
    throw new AuthenticationError(message, `Bearer realm="${METRICS_REALM}"`)
  }
}

const digest = (value: string): Buffer => createHash('sha256').update(value).digest()

/** The public routes a limit guards are the Agent Cards (the probes and /metrics are exempt). */
const limitOf = (request: FastifyRequest) =>
  request.routeOptions.config.public === true ? 'discovery' : 'requests'

export default fp(metricsPlugin, { name: 'a2a-metrics', fastify: '5.x' })
