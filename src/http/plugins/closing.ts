/**
 * While the server shuts down (from `close()` until the listener stops: the engine drains its
 * turns for up to SHUTDOWN_GRACE_MS meanwhile), a request is refused with 503 and `Retry-After`
 * in the error format of its dialect, so that an A2A client reads "retry elsewhere" instead of a
 * body it cannot parse. Fastify's own shortcut (`return503OnClosing`) answers every path with
 * one fixed body, so it is off (app.ts). Fastify still sends `Connection: close` meanwhile, and
 * the probes (`config.whileClosing`) keep answering: /readyz says `closing`.
 */
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { ServiceUnavailableError } from '../../domain/errors.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** True from `close()` on. */
    readonly closing: boolean
  }
  interface FastifyContextConfig {
    /** The route answers as usual while the server shuts down (the probes). */
    whileClosing?: boolean
  }
}

const closing: FastifyPluginAsync = async (app) => {
  let closing = false
  // Registered before the engine's preClose, which waits the grace: this one runs first.
  app.addHook('preClose', async () => {
    closing = true
  })
  app.decorate('closing', {
    getter: () => closing,
  })
  // A callback hook, not an async one: it runs on every request.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!closing || request.routeOptions.config.whileClosing === true) return done()
    done(new ServiceUnavailableError('The server is shutting down; retry the request'))
  })
}

export default fp(closing, { name: 'a2a-closing', fastify: '5.x' })
