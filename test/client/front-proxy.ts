/**
 * An HTTP proxy in front of an agent, as a load balancer or a reverse proxy stands there: it
 * forwards every request, except those a test tells it to answer itself (a 503 with only a
 * Retry-After header, an HTML error page), and notes each request it got.
 */
import { createServer, request as forward } from 'node:http'
import type { IncomingMessage, OutgoingHttpHeaders, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A reply the proxy gives itself, in place of the agent's. */
export interface ProxyReply {
  status: number
  headers?: OutgoingHttpHeaders
  body?: string
}

export interface ProxiedRequest {
  method: string
  path: string
  at: number
  /** The status the proxy answered itself, or `undefined` when it forwarded the request. */
  answered: number | undefined
}

export class FrontProxy {
  readonly #server: Server
  /** Replies to give, one per request, before forwarding again; Agent Cards always pass. */
  replies: ProxyReply[] = []
  /** Cut the next stream after its first event, then give these replies. */
  #dropNextStream: ProxyReply[] | undefined
  requests: ProxiedRequest[] = []
  target = ''

  constructor() {
    this.#server = createServer((request, response) => this.#handle(request, response))
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve))
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`
  }

  /** Cuts the next SSE stream once its first event has passed, then answers with `replies`. */
  dropNextStream(...replies: ProxyReply[]): void {
    this.#dropNextStream = replies
  }

  close(): Promise<void> {
    this.#server.closeAllConnections()
    return new Promise((resolve) => this.#server.close(() => resolve()))
  }

  #handle(request: IncomingMessage, response: ServerResponse): void {
    const path = request.url ?? '/'
    const noted: ProxiedRequest = {
      method: request.method ?? 'GET',
      path,
      at: Date.now(),
      answered: undefined,
    }
    this.requests.push(noted)
    const reply = path.startsWith('/.well-known/') ? undefined : this.replies.shift()
    if (reply !== undefined) {
      noted.answered = reply.status
      request.resume()
      response.writeHead(reply.status, reply.headers)
      response.end(reply.body ?? '')
      return
    }
    const upstream = forward(
      `${this.target}${path}`,
      { method: request.method, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers)
        const streaming = (answer.headers['content-type'] ?? '').startsWith('text/event-stream')
        const drop = streaming ? this.#dropNextStream : undefined
        if (drop !== undefined) this.#dropNextStream = undefined
        let cut = false
        answer.on('data', (chunk: Buffer) => {
          if (cut) return
          if (drop === undefined || !chunk.includes('data:')) {
            response.write(chunk)
            return
          }
          // The event reaches the caller; then the connection breaks.
          cut = true
          this.replies.push(...drop)
          answer.destroy()
          response.write(chunk, () => response.destroy())
        })
        answer.on('end', () => response.end())
      },
    )
    upstream.on('error', () => response.destroy())
    request.pipe(upstream)
  }
}
