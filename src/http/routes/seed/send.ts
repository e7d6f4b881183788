/**
 * POST /tasks/send creates a task (idempotent on its client-chosen id) and POST /tasks/:id/send
 * continues an input-required one (the same answer again, once taken, returns the task); both
 * answer when the task is terminal or input-required, or with the still-working task once
 * SEND_WAIT_MS has passed.
 */
import type { FastifyPluginAsync } from 'fastify'
import { InvalidRequestError } from '../../../domain/errors.js'
import {
  messageFromSeed,
  repeatsLastContinuation,
  taskToSeed,
} from '../../../protocol/seed/codec.js'
import { ContinueTaskBody, SendTaskBody, TaskParams } from '../../../protocol/seed/schemas.js'
import { callerOf, creatorOf, originOf, viewerOf } from '../../a2a/caller.js'
import type { ZodTypeProvider } from '../../zod-type-provider.js'
import type { SeedRoutesOptions } from './index.js'

const send: FastifyPluginAsync<SeedRoutesOptions> = async (fastify, options) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>()

  app.post('/tasks/send', { schema: { body: SendTaskBody } }, async (request) => {
    const { id, sessionId, message, metadata, historyLength } = request.body
    await app.tasks.send({
      taskId: id,
      ...(sessionId && { contextId: sessionId }),
      message: messageFromSeed(message),
      ...(metadata && { metadata }),
      ...creatorOf(request),
    })
    const task = await app.tasks.waitForFinal(id, options.sendWaitMs)
    return taskToSeed(task, historyLength)
  })

  app.post(
    '/tasks/:id/send',
    { schema: { params: TaskParams, body: ContinueTaskBody } },
    async (request) => {
      const { id } = request.params
      const { message, historyLength } = request.body
      if (request.body.id !== undefined && request.body.id !== id) {
        throw new InvalidRequestError('must match the task id in the path', 'id')
      }
      const caller = callerOf(request)
      // Another caller's task is "not found"; a revoked skill scope stops the next turn.
      const task = await app.tasks.getFor(id, viewerOf(caller))
      app.tasks.checkSkillScopes(task.skillId, caller?.scopes, id)
      // The brief's messages carry no id: a retry is the task's last continuation once more,
      // sent after the task stopped waiting for it.
      if (task.status.state !== 'input-required' && repeatsLastContinuation(task, message)) {
        await app.tasks.resume(task, originOf(request))
      } else {
        await app.tasks.continue(id, messageFromSeed(message), originOf(request), task)
      }
      return taskToSeed(await app.tasks.waitForFinal(id, options.sendWaitMs), historyLength)
    },
  )
}

export default send
