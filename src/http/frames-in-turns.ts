/**
 * Every SSE stream is sent from here: SSE frames made in one turn of the event loop leave in one
 * write. The response is corked at a turn's first frame and uncorked once the turn's other work
 * is done (setImmediate), so the frames a burst of events makes (a fast turn's working, artifact
 * and completed; a batch read from a Redis stream) share one syscall, where each would otherwise
 * pay for its own. A frame that comes alone waits for nothing but the end of the turn it was made
 * in. See docs/sse-plugin.md.
 */
import type { ServerResponse } from 'node:http'
import type { SSEMessage } from '@fastify/sse'
import type { FastifyReply } from 'fastify'

/** Streams `frames` on a `sse: 'manual'` route, a turn's frames in one write. */
export function sendFrames(reply: FastifyReply, frames: AsyncIterable<SSEMessage>): Promise<void> {
  return reply.sse.send(framesInTurns(reply.raw, frames))
}

async function* framesInTurns<T>(
  response: ServerResponse,
  frames: AsyncIterable<T>,
): AsyncGenerator<T> {
  let corked = false
  const uncork = () => {
    corked = false
    // Harmless once the response has ended: `end()` uncorks fully, and a spare uncork is a no-op.
    response.uncork()
  }
  for await (const frame of frames) {
    if (!corked) {
      corked = true
      response.cork()
      setImmediate(uncork)
    }
    yield frame
  }
}
