/**
 * Liveness and readiness probes for orchestrators; public, cheap, and never logged. Liveness
 * says the process is up; readiness also needs the dependencies (Redis) reachable.
 * `app.readiness()` is the one definition of "ready": /readyz answers it over HTTP, and the
 * process asks it directly at start (src/server.ts), so that its own checks are no requests
 * (neither counted in /metrics nor logged).
 */
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'

export type Readiness =
  | { status: 'ready' }
  | { status: 'closing' }
  | {
      status: 'unavailable'
      /** The dependencies that cannot be reached now (e.g. `['redis']`). */
      unreachable: string[]
    }

export interface HealthOptions {
  /** The dependencies that cannot be reached now (e.g. `['redis']`); empty when ready. */
  unreachable?: () => Promise<string[]>
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether the process is ready to serve, as /readyz says it (without a request). */
    readiness(): Promise<Readiness>
  }
}

const health: FastifyPluginAsync<HealthOptions> = async (app, options) => {
  app.decorate('readiness', async (): Promise<Readiness> => {
    if (app.closing) return { status: 'closing' }
    const unreachable = (await options.unreachable?.()) ?? []
    if (unreachable.length === 0) return { status: 'ready' }
    return { status: 'unavailable', unreachable }
  })
  const probe = { logLevel: 'warn', config: { public: true, whileClosing: true } } as const
  app.get('/healthz', probe, async () => ({ status: 'ok' }))
  app.get('/readyz', probe, async (_request, reply) => {
    const readiness = await app.readiness()
    return readiness.status === 'ready' ? readiness : reply.code(503).send(readiness)
  })
}

// Not encapsulated: `app.readiness` is the root app's.
export default fp(health, { name: 'a2a-health', fastify: '5.x', dependencies: ['a2a-closing'] })
