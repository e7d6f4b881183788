/**
 * GET /.well-known/agent.json: rendered once, served from memory with an ETag and
 * Last-Modified (peers poll it).
 */
import type { FastifyPluginAsync } from 'fastify'
import { renderSeedCard } from '../../../protocol/seed/card.js'
import { cachedDocument, sendDocument } from '../../cached-document.js'
import type { SeedRoutesOptions } from './index.js'

const card: FastifyPluginAsync<SeedRoutesOptions> = async (app, options) => {
  const document = cachedDocument(renderSeedCard(app.agent))
  const cacheControl = `public, max-age=${options.cardMaxAgeSeconds}`

  app.get(
    '/.well-known/agent.json',
    { logLevel: 'warn', config: { public: true } },
    async (request, reply) => sendDocument(request, reply, document, cacheControl),
  )
}

export default card
