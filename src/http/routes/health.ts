/**
 * Liveness and readiness probes for orchestrators; public, cheap, and never logged. Liveness
 * says the process is up; readiness also needs the dependencies (Redis) reachable.
 */
import type { FastifyPluginAsync } from 'fastify'

export interface HealthOptions {
  /** The dependencies that cannot be reached now (e.g. `['redis']`); empty when ready. */
  unreachable?: () => Promise<string[]>
}

const health: FastifyPluginAsync<HealthOptions> = async (app, options) => {
  const probe = { logLevel: 'warn', config: { public: true, whileClosing: true } } as const
  app.get('/healthz', probe, async () => ({ status: 'ok' }))
  app.get('/readyz', probe, async (_request, reply) => {
    if (app.closing) return reply.code(503).send({ status: 'closing' })
    const unreachable = (await options.unreachable?.()) ?? []
    if (unreachable.length > 0) return reply.code(503).send({ status: 'unavailable', unreachable })
    return { status: 'ready' }
  })
}

export default health
