/** GET /.well-known/agent.json: rendered once, served from memory with an ETag (peers poll it). */
import { createHash } from 'node:crypto'
import type { FastifyPluginAsync } from 'fastify'
import { renderSeedCard } from '../../../protocol/seed/card.js'
import type { SeedRoutesOptions } from './index.js'

const card: FastifyPluginAsync<SeedRoutesOptions> = async (app, options) => {
  const body = JSON.stringify(renderSeedCard(app.agent))
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`
  const cacheControl = `public, max-age=${options.cardMaxAgeSeconds}`

  app.get(
    '/.well-known/agent.json',
    { logLevel: 'warn', config: { public: true } },
    async (request, reply) => {
      reply.header('etag', etag).header('cache-control', cacheControl)
      if (request.headers['if-none-match'] === etag) return reply.code(304).send()
      return reply.type('application/json; charset=utf-8').send(body)
    },
  )
}

export default card
