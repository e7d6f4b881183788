/**
 * CORS, for agents called from web pages on other origins (CORS_ORIGINS; off when unset). A
 * preflight is answered here, before the token is checked (a browser sends none with it) and
 * before the rate limit counts it; every other answer, errors included, carries the allowed
 * origin and the headers a page may read.
 */
import fastifyCors from '@fastify/cors'
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'

/** Response headers a page may read besides the CORS-safelisted ones. */
const EXPOSED_HEADERS = [
  'allow',
  'etag',
  'location',
  'retry-after',
  'www-authenticate',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-request-id',
]

/** Every method a route here takes. */
const METHODS = ['GET', 'HEAD', 'POST', 'DELETE']

/** How long a browser may reuse a preflight's answer (seconds). */
const PREFLIGHT_MAX_AGE_SECONDS = 600

export interface CorsOptions {
  /** `['*']`, or exact origins (see cors-origins.ts). */
  origins: readonly string[]
}

const cors: FastifyPluginAsync<CorsOptions> = async (app, { origins }) => {
  await app.register(fastifyCors, {
    origin: origins.includes('*') ? '*' : [...origins],
    methods: METHODS,
    // No allowedHeaders: a preflight is allowed whatever headers the page asks to send
    // (Authorization, A2A-Version, Last-Event-ID, …).
    exposedHeaders: EXPOSED_HEADERS,
    // Bearer tokens, not cookies: a page sends its token itself.
    credentials: false,
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
    // An OPTIONS request without `Origin` (curl) gets the same empty 204, never a text/plain 400.
    strictPreflight: false,
  })
}

export default fp(cors, { name: 'a2a-cors', fastify: '5.x' })
