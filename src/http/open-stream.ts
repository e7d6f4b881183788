/**
 * Every SSE route opens its stream here, before it creates or reads anything: the caller's
 * limit on open streams is checked (StreamLimitError, a plain error reply, when it is reached;
 * the metrics read the count), and the signal returned aborts when the client goes away or
 * the stream ends, for the code following the task's events to stop. Its slot is freed then too,
 * also when the route failed before the first frame.
 *
 * The signal aborts with one reason made once: an abort without a reason builds a DOMException,
 * stack trace and all, for every stream that ends.
 */
import type { FastifyReply } from 'fastify'
import { ownerKey } from '../domain/caller.js'
import { callerOf } from './a2a/caller.js'
import type { OpenStreams } from './open-streams.js'

declare module 'fastify' {
  interface FastifyInstance {
    openStreams: OpenStreams
  }
}

const STREAM_CLOSED = new Error('The stream is closed')

/** Streams without a verified caller (an open server) share one budget. */
const ANONYMOUS = ''

export function openStream(reply: FastifyReply): AbortSignal {
  const caller = callerOf(reply.request)
  const release = reply.server.openStreams.open(caller ? ownerKey(caller) : ANONYMOUS, () =>
    reply.sse.close(),
  )
  const closed = new AbortController()
  reply.sse.onClose(() => {
    release()
    closed.abort(STREAM_CLOSED)
  })
  return closed.signal
}

/**
 * How a stream that fails after its first frame is logged (domain/log-failure.ts): the status
 * line is long gone, so no error handler sees it.
 */
export const STREAM_FAILURE = { refused: 'stream ended', failed: 'stream failed' }
