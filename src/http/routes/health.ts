/** Liveness and readiness probes for orchestrators; public, cheap, and never logged. */
import type { FastifyPluginAsync } from 'fastify'

const health: FastifyPluginAsync = async (app) => {
  let closing = false
  app.addHook('preClose', async () => {
    closing = true
  })
  app.get('/healthz', { logLevel: 'warn' }, async () => ({ status: 'ok' }))
  app.get('/readyz', { logLevel: 'warn' }, async (_request, reply) => {
    if (closing) return reply.code(503).send({ status: 'closing' })
    return { status: 'ready' }
  })
}

export default health
