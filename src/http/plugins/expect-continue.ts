/**
 * `Expect: 100-continue`, which curl and others send before a large body. Node answers
 * `100 Continue` before any route runs, so the client sends a body the route then refuses as
 * too large (413) and closes the connection on, unread: the client's TCP reset can destroy the
 * 413 before the client reads it. A request whose Content-Length is over BODY_LIMIT is answered
 * without `100 Continue`: the route says 413 in its dialect's format at once, and the client,
 * told before it sent the body, sends none. Any other request gets its `100 Continue` as before.
 */
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'

export interface ExpectContinueOptions {
  /** BODY_LIMIT, in bytes. */
  bodyLimit: number
}

const expectContinue: FastifyPluginAsync<ExpectContinueOptions> = async (app, { bodyLimit }) => {
  app.server.on('checkContinue', (request, response) => {
    const length = Number(request.headers['content-length'])
    if (!(length > bodyLimit)) response.writeContinue()
    app.server.emit('request', request, response)
  })
}

export default fp(expectContinue, { name: 'a2a-expect-continue', fastify: '5.x' })
