/**
 * GET /.well-known/agent-card.json: the A2A 1.0 card for `A2A-Version: 1.0`, the 0.3 card for
 * `0.3`, and for a request that names no version the shape AGENT_CARD_DEFAULT_VERSION says.
 * Both are rendered once from the agent declaration and served from memory with their own
 * ETag; `Vary: A2A-Version` keeps caches from mixing them up.
 */
import type { FastifyPluginAsync } from 'fastify'
import { A2AError } from '../../domain/errors.js'
import type { AgentEndpoints } from '../../protocol/a2a/endpoints.js'
import type { ProtocolVersion } from '../../protocol/a2a/versions.js'
import { protocolVersionOf } from '../../protocol/a2a/versions.js'
import { renderV03Card } from '../../protocol/v03/card.js'
import { renderV10Card } from '../../protocol/v10/card.js'
import { v10RestErrorReply } from '../../protocol/v10/errors.js'
import { askedVersionOf } from '../a2a/asked-version.js'
import type { CachedDocument } from '../cached-document.js'
import { cachedDocument, sendDocument } from '../cached-document.js'
import { dialectErrorHandler } from '../error-handler.js'

export const AGENT_CARD_PATH = '/.well-known/agent-card.json'

export interface AgentCardRoutesOptions {
  endpoints: AgentEndpoints
  cardMaxAgeSeconds: number
  /** The card shape for a request without `A2A-Version`. */
  defaultVersion: ProtocolVersion
}

const agentCard: FastifyPluginAsync<AgentCardRoutesOptions> = async (app, options) => {
  // Authenticated callers get the extended card (src/http/a2a/extended-card.ts).
  const cardOptions = { endpoints: options.endpoints, extendedCard: true }
  // The cards change only when the process restarts with a new declaration.
  const cards: Record<ProtocolVersion, CachedDocument> = {
    '1.0': cachedDocument(renderV10Card(app.agent, cardOptions)),
    '0.3': cachedDocument(renderV03Card(app.agent, cardOptions)),
  }
  const cacheControl = `public, max-age=${options.cardMaxAgeSeconds}`

  // Errors from hooks (a rate limit) leave in the same shape as a bad version: 1.0's.
  app.setErrorHandler(dialectErrorHandler(v10RestErrorReply, { bodyLimit: 0 }))

  app.get(
    AGENT_CARD_PATH,
    { logLevel: 'warn', config: { public: true } },
    async (request, reply) => {
      // Added to, not replacing, the `Vary: Origin` that CORS may have set.
      reply.header('vary', varyWith(reply.getHeader('vary'), 'A2A-Version'))
      const asked = askedVersionOf(request)
      let version: ProtocolVersion
      try {
        version = asked ? protocolVersionOf(asked) : options.defaultVersion
      } catch (error) {
        if (!(error instanceof A2AError)) throw error
        const { statusCode, body } = v10RestErrorReply(error)
        return reply.code(statusCode).send(body)
      }
      return sendDocument(request, reply, cards[version], cacheControl)
    },
  )
}

export default agentCard

/** A `Vary` value that also names `field`. */
function varyWith(current: unknown, field: string): string {
  return typeof current === 'string' && current !== '' ? `${current}, ${field}` : field
}
