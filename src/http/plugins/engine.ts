/**
 * Makes the engine available to every route: `app.tasks` (TaskService) and `app.agent` (the
 * agent declaration). Once ready, it fails tasks left waiting on their callers for too long
 * (wait-expiry.ts). On close it stops that and drains running turns before the stores go away.
 */
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import type { Logger } from 'pino'
import type { AgentDeclaration } from '../../domain/agent.js'
import type { Dispatcher } from '../../engine/dispatcher.js'
import type { TaskService } from '../../engine/task-service.js'
import { WaitExpiry } from '../../engine/wait-expiry.js'

export interface EnginePluginOptions {
  tasks: TaskService
  agent: AgentDeclaration
  dispatcher: Dispatcher
  shutdownGraceMs: number
  /** INPUT_TIMEOUT_SECONDS in ms: how long a task may wait on its caller; 0: for ever. */
  waitTimeoutMs: number
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
  const waits = new WaitExpiry(options.tasks, options.waitTimeoutMs, app.log as Logger)
  app.addHook('onReady', async () => waits.start())
  app.addHook('preClose', async () => {
    await waits.stop()
    await options.dispatcher.close(options.shutdownGraceMs)
  })
}

export default fp(engine, { name: 'a2a-engine', fastify: '5.x' })
