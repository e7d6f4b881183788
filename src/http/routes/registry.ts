/**
 * The agent registry over HTTP: /registry/agents. Errors take the brief's `{error: {...}}`
 * shape. The routes that change the registry need `a2a:admin` (their `config.scopes`, checked
 * by plugins/auth.ts): registering makes the server fetch a URL. Each change is audited. Reading
 * the registry needs no more than any authenticated caller.
 */
import type { FastifyPluginAsync } from 'fastify'
import { z } from 'zod'
import type { AgentRegistry } from '../../registry/registry.js'
import { useJsonBodyParser } from '../json-body.js'
import { auditRegistryChange } from '../plugins/audit.js'
import type { ZodTypeProvider } from '../zod-type-provider.js'
import { seedErrorHandler } from './seed/error-handler.js'

export interface RegistryRoutesOptions {
  registry: AgentRegistry
  bodyLimit: number
}

/** What changing the registry needs once authentication is on. */
export const REGISTRY_ADMIN_SCOPE = 'a2a:admin'

const AgentParams = z.object({
  id: z
    .string()
    .regex(
      /^[0-9a-f]{16}$/,
      'must be an agent id: 16 hex digits, as registering the agent answered',
    ),
})
const ListQuery = z.object({
  skill: z.string().min(1).optional(),
  tag: z.string().min(1).optional(),
  healthy: z.enum(['true', 'false']).optional(),
})
const RegisterBody = z.object({
  url: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }),
})

const registryRoutes: FastifyPluginAsync<RegistryRoutesOptions> = async (fastify, options) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const { registry } = options
  app.setErrorHandler(seedErrorHandler(options.bodyLimit))
  useJsonBodyParser(fastify)

  app.get('/registry/agents', { schema: { querystring: ListQuery } }, async (request) => {
    const { skill, tag, healthy } = request.query
    const agents = await registry.list({
      ...(skill !== undefined && { skill }),
      ...(tag !== undefined && { tag }),
      ...(healthy !== undefined && { healthy: healthy === 'true' }),
    })
    return { agents }
  })

  app.get('/registry/agents/:id', { schema: { params: AgentParams } }, async (request) =>
    registry.get(request.params.id),
  )

  // Registering a URL again refreshes its entry from the card: 200 instead of 201.
  app.post(
    '/registry/agents',
    { schema: { body: RegisterBody }, config: { scopes: [REGISTRY_ADMIN_SCOPE] } },
    async (request, reply) => {
      const { entry, created } = await registry.register(request.body.url)
      auditRegistryChange(request, {
        outcome: created ? 'registered' : 'refreshed',
        agentId: entry.id,
        url: entry.url,
      })
      return reply
        .code(created ? 201 : 200)
        .header('location', `/registry/agents/${entry.id}`)
        .send(entry)
    },
  )

  app.delete(
    '/registry/agents/:id',
    { schema: { params: AgentParams }, config: { scopes: [REGISTRY_ADMIN_SCOPE] } },
    async (request, reply) => {
      await registry.remove(request.params.id)
      auditRegistryChange(request, { outcome: 'removed', agentId: request.params.id })
      return reply.code(204).send()
    },
  )
}

export default registryRoutes
