/**
 * POST /tasks/sendSubscribe: creates the task (or finds it again, on a retry) and streams it as
 * SSE until it is terminal or input-required. Every frame has an `id:`; a reconnect that sends
 * `Last-Event-ID` gets exactly the frames after it, or 404 when the task is not (or no longer)
 * here.
 */
import type { FastifyPluginAsync } from 'fastify'
import type { TaskService } from '../../../engine/task-service.js'
import { messageFromSeed } from '../../../protocol/seed/codec.js'
import { SendTaskBody } from '../../../protocol/seed/schemas.js'
import { SeedFolder } from '../../../protocol/seed/stream.js'
import { creatorOf } from '../../a2a/caller.js'
import { sendFrames } from '../../frames-in-turns.js'
import { openStream, STREAM_FAILURE } from '../../open-stream.js'
import { logFailure } from '../../../domain/log-failure.js'
import type { ZodTypeProvider } from '../../zod-type-provider.js'

const subscribe: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>()

  app.post(
    '/tasks/sendSubscribe',
    { schema: { body: SendTaskBody }, sse: 'manual' },
    async (request, reply) => {
      const { id, sessionId, message, metadata } = request.body
      // First: a caller with too many streams open gets an error, and no task.
      const signal = openStream(reply)
      const lastEventId = reply.sse.lastEventId ?? undefined
      // A resume goes on with a stream of a task this server has. One it does not have (an
      // in-memory server restarted, the task expired) is not found: never created and run anew.
      if (lastEventId !== undefined) await app.tasks.getFor(id, creatorOf(request).owner)
      const { task } = await app.tasks.send({
        taskId: id,
        ...(sessionId && { contextId: sessionId }),
        message: messageFromSeed(message),
        ...(metadata && { metadata }),
        ...creatorOf(request),
      })
      try {
        await sendFrames(reply, frames(app.tasks, task.id, task.contextId, lastEventId, signal))
      } catch (error) {
        // Before the first frame, a failure is an ordinary error reply. After it, the stream
        // ends; the client resumes from its Last-Event-ID.
        if (!reply.raw.headersSent) throw error
        logFailure(reply.log, error, STREAM_FAILURE)
      }
    },
  )
}

async function* frames(
  tasks: TaskService,
  taskId: string,
  sessionId: string,
  lastEventId: string | undefined,
  signal: AbortSignal,
) {
  const folder = new SeedFolder(taskId, sessionId)
  const backlog = await tasks.events(taskId)
  // An id this task's log never had replays everything: duplicates over loss.
  const resumeAfter =
    lastEventId === undefined ? -1 : backlog.findIndex((e) => e.id === lastEventId)
  let final = false
  for (const [index, stored] of backlog.entries()) {
    // An input-required the task has left since (a retry or a resume after it was answered) is
    // not where this stream ends: it goes on to the task's current state.
    const frame = folder.next(stored, index < backlog.length - 1)
    final = frame.final
    if (index > resumeAfter) yield { id: frame.id, data: frame.data }
  }
  if (final) return
  for await (const stored of tasks.follow(taskId, backlog.at(-1)?.id, signal)) {
    const frame = folder.next(stored)
    yield { id: frame.id, data: frame.data }
    if (frame.final) return
  }
}

export default subscribe
