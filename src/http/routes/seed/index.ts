/**
 * The brief's dialect: /.well-known/agent.json and /tasks/*. Its routes share one error
 * handler, so every failure (bad JSON, schema, engine) leaves in this dialect's error shape.
 */
import type { FastifyPluginAsync } from 'fastify'
import { useJsonBodyParser } from '../../json-body.js'
import card from './card.js'
import { seedErrorHandler } from './error-handler.js'
import send from './send.js'
import subscribe from './subscribe.js'
import tasks from './tasks.js'

export interface SeedRoutesOptions {
  bodyLimit: number
  cardMaxAgeSeconds: number
  sendWaitMs: number
}

const seedDialect: FastifyPluginAsync<SeedRoutesOptions> = async (app, options) => {
  app.setErrorHandler(seedErrorHandler(options.bodyLimit))
  useJsonBodyParser(app)
  await app.register(card, options)
  await app.register(send, options)
  await app.register(subscribe, options)
  await app.register(tasks, options)
}

export default seedDialect
