/**
 * Every SSE stream is sent from here: SSE frames made in one turn of the event loop leave in one
 * write. The response is corked at a turn's first frame and uncorked once the turn's other work
 * is done (setImmediate), so the frames a burst of events makes (a fast turn's working, artifact
 * and completed; a batch read from a Redis stream) share one syscall, where each would otherwise
 * pay for its own. A frame that comes alone waits for nothing but the end of the turn it was made
 * in. See docs/sse-plugin.md.
 *
 * The stream says it is UTF-8 (`text/event-stream; charset=utf-8`), as SSE always is: clients
 * that read a `text/*` type without a charset as ISO-8859-1 (Python's `requests`) would garble
 * every non-ASCII character otherwise. It is set at the first frame, so that a failure before it
 * is an ordinary JSON error reply.
 */
import type { SSEMessage } from '@fastify/sse'
import type { FastifyReply } from 'fastify'

const SSE_CONTENT_TYPE = 'text/event-stream; charset=utf-8'

/** Streams `frames` on a `sse: 'manual'` route, a turn's frames in one write. */
export function sendFrames(reply: FastifyReply, frames: AsyncIterable<SSEMessage>): Promise<void> {
  return reply.sse.send(framesInTurns(reply, frames))
}

async function* framesInTurns<T>(reply: FastifyReply, frames: AsyncIterable<T>): AsyncGenerator<T> {
  const response = reply.raw
  let first = true
  let corked = false
  const uncork = () => {
    corked = false
    // Harmless once the response has ended: `end()` uncorks fully, and a spare uncork is a no-op.
    response.uncork()
  }
  for await (const frame of frames) {
    if (first) {
      first = false
      // The plugin sends its headers at the first write, with the reply's own after its own.
      reply.header('content-type', SSE_CONTENT_TYPE)
    }
    if (!corked) {
      corked = true
      response.cork()
      setImmediate(uncork)
    }
    yield frame
  }
}
