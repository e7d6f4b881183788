/** GET /tasks/:id and POST /tasks/:id/cancel. */
import type { FastifyPluginAsync } from 'fastify'
import { taskToSeed } from '../../../protocol/seed/codec.js'
import { GetTaskQuery, TaskParams } from '../../../protocol/seed/schemas.js'
import type { ZodTypeProvider } from '../../zod-type-provider.js'

const tasks: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>()

  app.get(
    '/tasks/:id',
    { schema: { params: TaskParams, querystring: GetTaskQuery } },
    async (request) => {
      const task = await app.tasks.get(request.params.id)
      return taskToSeed(task, request.query.historyLength)
    },
  )

  app.post('/tasks/:id/cancel', { schema: { params: TaskParams } }, async (request) => {
    return taskToSeed(await app.tasks.cancel(request.params.id))
  })
}

export default tasks
