/** A small SSE reader, as a test client sees the stream: frames and comments. */
import type { ClientRequest } from 'node:http'
import { request as httpRequest } from 'node:http'
import { authHeaders } from './auth.js'
export interface SseFrame {
  id?: string
  event?: string
  data: string
}

export interface SseRead {
  frames: SseFrame[]
  comments: string[]
}

/** Yields each frame (and records comments) until the server closes the stream. */
export async function* sseFrames(
  response: Response | AsyncIterable<Uint8Array>,
  comments: string[] = [],
): AsyncGenerator<SseFrame> {
  const body = response instanceof Response ? response.body : response
  if (!body) throw new Error('response has no body')
  const decoder = new TextDecoder()
  let buffer = ''
  for await (const chunk of body) {
    buffer += decoder.decode(chunk as Uint8Array, { stream: true })
    let end: number
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      const frame: SseFrame = { data: '' }
      const data: string[] = []
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) comments.push(line.slice(1).trim())
        else if (line.startsWith('id:')) frame.id = line.slice(3).trim()
        else if (line.startsWith('event:')) frame.event = line.slice(6).trim()
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''))
      }
      if (data.length > 0) {
        frame.data = data.join('\n')
        yield frame
      }
    }
  }
}

export async function readAll(response: Response): Promise<SseRead> {
  const comments: string[] = []
  const frames: SseFrame[] = []
  for await (const frame of sseFrames(response, comments)) frames.push(frame)
  return { frames, comments }
}

/**
 * Opens an SSE stream with node:http, so that a test can drop the connection for real
 * (`request.destroy()` closes the socket; an aborted fetch may keep it alive). It sends the
 * default test caller's token unless `headers` has its own `authorization`.
 */
export function openStream(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ request: ClientRequest; frames: AsyncGenerator<SseFrame> }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...authHeaders(), ...headers },
    })
    request.on('response', (response) => resolve({ request, frames: sseFrames(response) }))
    request.on('error', reject)
    request.end(JSON.stringify(body))
  })
}

/** Opens POST /tasks/sendSubscribe with fetch, resuming after `lastEventId` when given. */
export function sendSubscribe(
  url: string,
  body: unknown,
  { lastEventId, signal }: { lastEventId?: string; signal?: AbortSignal } = {},
): Promise<Response> {
  return fetch(`${url}/tasks/sendSubscribe`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...authHeaders(),
      ...(lastEventId !== undefined && { 'last-event-id': lastEventId }),
    },
    body: JSON.stringify(body),
    ...(signal && { signal }),
  })
}
