/**
 * A signal that aborts when the client of an SSE reply goes away (or the stream ends), for the
 * code following a task's events to stop. It aborts with one reason made once: an abort without
 * a reason builds a DOMException, stack trace and all, for every stream that ends. Every SSE
 * route opens its stream through here, so here the metrics count open streams.
 */
import type { FastifyReply } from 'fastify'

export const STREAM_CLOSED = new Error('The stream is closed')

export function closedSignal(reply: FastifyReply): AbortSignal {
  const closed = new AbortController()
  const streamClosed = reply.server.metrics?.streamOpened()
  reply.sse.onClose(() => {
    streamClosed?.()
    closed.abort(STREAM_CLOSED)
  })
  return closed.signal
}
