/**
 * The brief's dialect: /.well-known/agent.json and /tasks/*. Its routes share one error
 * handler, so every failure (bad JSON, schema, engine) leaves in this dialect's error shape.
 */
import type { FastifyError, FastifyPluginAsync } from 'fastify'
import { seedErrorReply } from '../../../protocol/seed/errors.js'
import { toA2AError } from '../../errors.js'
import card from './card.js'
import send from './send.js'
import subscribe from './subscribe.js'
import tasks from './tasks.js'

export interface SeedRoutesOptions {
  bodyLimit: number
  cardMaxAgeSeconds: number
  sendWaitMs: number
}

const seedDialect: FastifyPluginAsync<SeedRoutesOptions> = async (app, options) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const a2aError = toA2AError(error, {
      bodyLimit: options.bodyLimit,
      contentType: request.headers['content-type'],
    })
    const { statusCode, body } = seedErrorReply(a2aError, request.id)
    if (statusCode >= 500) request.log.error({ err: error }, 'request failed')
    return reply.code(statusCode).send(body)
  })
  await app.register(card, options)
  await app.register(send, options)
  await app.register(subscribe, options)
  await app.register(tasks, options)
}

export default seedDialect
