/** GET /tasks/:id and POST /tasks/:id/cancel, on the caller's own tasks only. */
import type { FastifyPluginAsync } from 'fastify'
import { taskToSeed } from '../../../protocol/seed/codec.js'
import { GetTaskQuery, TaskParams } from '../../../protocol/seed/schemas.js'
import { callerOf, originOf, viewerOf } from '../../a2a/caller.js'
import type { ZodTypeProvider } from '../../zod-type-provider.js'

const tasks: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>()

  app.get(
    '/tasks/:id',
    { schema: { params: TaskParams, querystring: GetTaskQuery } },
    async (request) => {
      const task = await app.tasks.getFor(request.params.id, viewerOf(callerOf(request)))
      return taskToSeed(task, request.query.historyLength)
    },
  )

  app.post('/tasks/:id/cancel', { schema: { params: TaskParams } }, async (request) => {
    const { id } = request.params
    await app.tasks.getFor(id, viewerOf(callerOf(request)))
    return taskToSeed(await app.tasks.cancel(id, originOf(request)))
  })
}

export default tasks
