/** Every reply carries the request id (the caller's `x-request-id` when it is sane). */
import type { FastifyPluginAsync } from 'fastify'
import type { IncomingMessage } from 'node:http'
import fp from 'fastify-plugin'
import { newId } from '../../domain/ids.js'

const SANE_ID = /^[\w.:-]{1,128}$/

export const genReqId = (request: IncomingMessage): string => {
  const given = request.headers['x-request-id']
  return typeof given === 'string' && SANE_ID.test(given) ? given : newId()
}

const requestId: FastifyPluginAsync = async (app) => {
  // A callback hook, not an async one: it runs on every request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id)
    done()
  })
}

export default fp(requestId, { name: 'a2a-request-id', fastify: '5.x' })
