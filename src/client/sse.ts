/** Reads a text/event-stream body into frames (`id`, `event`, `data`), as the SSE spec parses. */

export interface SseFrame {
  id?: string
  event?: string
  data: string
}

/**
 * Yields each frame until the body ends. `failure` turns a read error (a dropped connection, an
 * abort) into the error to throw. Leaving the loop early cancels the body.
 */
export async function* readSse(
  body: ReadableStream<Uint8Array>,
  failure: (error: unknown) => unknown,
): AsyncGenerator<SseFrame> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  let frame: SseFrame = { data: '' }
  let data: string[] = []
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>
      try {
        chunk = await reader.read()
      } catch (error) {
        throw failure(error)
      }
      if (chunk.done) return
      buffer += decoder.decode(chunk.value, { stream: true })
      let newline: number
      while ((newline = buffer.search(/\r\n|\r|\n/)) !== -1) {
        // A CR that ends the chunk may be the first half of a CRLF.
        if (newline === buffer.length - 1 && buffer.endsWith('\r')) break
        const line = buffer.slice(0, newline)
        buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1))
        if (line === '') {
          if (data.length > 0) yield { ...frame, data: data.join('\n') }
          frame = { data: '' }
          data = []
          continue
        }
        if (line.startsWith(':')) continue
        const colon = line.indexOf(':')
        const field = colon === -1 ? line : line.slice(0, colon)
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '')
        if (field === 'data') data.push(value)
        else if (field === 'id') frame.id = value
        else if (field === 'event') frame.event = value
      }
    }
  } finally {
    await reader.cancel().catch(() => {})
  }
}
