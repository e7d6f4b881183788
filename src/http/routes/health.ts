/**
 * Liveness and readiness probes for orchestrators; public, cheap, and never logged. Liveness
 * says the process is up; readiness also needs the dependencies (Redis) reachable.
 * `app.readiness()` is the one definition of "ready": /readyz answers it over HTTP, and the
 * process asks it directly at start (src/server.ts), so that its own checks are no requests
 * (neither counted in /metrics nor logged).
 */
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'

/** A dependency this process will not use until it restarts with `setting` changed. */
export interface Unusable {
  name: string
  setting: string
}

export type Readiness =
  | { status: 'ready' }
  | { status: 'closing' }
  | {
      status: 'unavailable'
      /** The dependencies that cannot be reached now (e.g. `['redis']`). */
      unreachable: string[]
      /** Of those, the ones that need a restart with a setting fixed; empty: they may come back. */
      untilRestart: Unusable[]
    }

export interface HealthOptions {
  /** The dependencies that cannot be reached now (e.g. `['redis']`); empty when ready. */
  unreachable?: () => Promise<string[]>
  /** The dependencies this process will not use before it restarts (see Unusable). */
  unusable?: () => Unusable[]
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
    return { status: 'unavailable', unreachable, untilRestart: options.unusable?.() ?? [] }
  })
  const probe = { logLevel: 'warn', config: { public: true, whileClosing: true } } as const
  app.get('/healthz', probe, async () => ({ status: 'ok' }))
  app.get('/readyz', probe, async (_request, reply) => {
    const readiness = await app.readiness()
    if (readiness.status !== 'unavailable') {
      return readiness.status === 'ready' ? readiness : reply.code(503).send(readiness)
    }
    // Which setting is wrong is for the log, not for whoever can reach the probe.
    const { status, unreachable } = readiness
    return reply.code(503).send({ status, unreachable })
  })
}

// Not encapsulated: `app.readiness` is the root app's.
export default fp(health, { name: 'a2a-health', fastify: '5.x', dependencies: ['a2a-closing'] })
