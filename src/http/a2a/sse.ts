/**
 * Streams A2A events as SSE on a `sse: 'manual'` route: one `data:` frame per item, closed when
 * the items end. A failure after the first frame is sent as an `event: error` frame, then the
 * stream closes (the status line is long gone).
 */
import type { FastifyReply } from 'fastify'
import type { A2AError } from '../../domain/errors.js'
import { toA2AError } from '../errors.js'
import { sendFrames } from '../frames-in-turns.js'
import { openStream, STREAM_FAILURE } from '../open-stream.js'
import { logFailure } from '../../domain/log-failure.js'
import type { StreamItem } from './operations.js'

export interface StreamEncoding {
  frame(item: StreamItem): unknown
  error(error: A2AError): unknown
}

export async function sendStream(
  reply: FastifyReply,
  open: (signal: AbortSignal) => Promise<AsyncIterable<StreamItem>>,
  encoding: StreamEncoding,
): Promise<void> {
  // Errors opening the stream (too many open, unknown task, bad state) are ordinary replies.
  const items = await open(openStream(reply))
  await sendFrames(reply, frames(items, encoding, reply))
}

async function* frames(
  items: AsyncIterable<StreamItem>,
  encoding: StreamEncoding,
  reply: FastifyReply,
) {
  try {
    for await (const item of items) yield { data: encoding.frame(item) }
  } catch (error) {
    logFailure(reply.log, error, STREAM_FAILURE)
    const a2aError = toA2AError(error, { bodyLimit: 0 })
    // The status line is long gone, so no onError hook sees this one: count it here.
    reply.server.metrics?.error(a2aError.code)
    yield { event: 'error', data: encoding.error(a2aError) }
  }
}
