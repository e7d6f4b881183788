/**
 * Makes the engine available to every route: `app.tasks` (TaskService) and `app.agent` (the
 * agent declaration). On close it drains running turns before the stores go away.
 */
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import type { AgentDeclaration } from '../../domain/agent.js'
import type { Dispatcher } from '../../engine/dispatcher.js'
import type { TaskService } from '../../engine/task-service.js'

export interface EnginePluginOptions {
  tasks: TaskService
  agent: AgentDeclaration
  dispatcher: Dispatcher
  shutdownGraceMs: number
}

declare module 'fastify' {
  interface FastifyInstance {
    tasks: TaskService
    agent: AgentDeclaration
  }
}

const engine: FastifyPluginAsync<EnginePluginOptions> = async (app, options) => {
  app.decorate('tasks', options.tasks)
  app.decorate('agent', options.agent)
  app.addHook('preClose', async () => {
    await options.dispatcher.close(options.shutdownGraceMs)
  })
}

export default fp(engine, { name: 'a2a-engine', fastify: '5.x' })
