/**
 * The brief's dialect: POST /tasks/send, POST /tasks/sendSubscribe (SSE: every frame is the
 * whole task), GET /tasks/:id, POST /tasks/:id/cancel, POST /tasks/:id/send. Task ids are the
 * client's; a dropped stream resumes by sending the same request again with `Last-Event-ID`.
 */
import { randomUUID } from 'node:crypto'
import { partToSeed } from '../../protocol/seed/codec.js'
import { agentErrorOf } from '../agent-error.js'
import { decode, parseJson } from '../decode.js'
import type { CallOptions, HttpClient } from '../http.js'
import type { RemoteTask } from '../model.js'
import { readSse } from '../sse.js'
import type { SendOptions, SendRequest, StreamItem, Transport } from '../transport.js'
import { SeedTaskReply, taskFromSeed } from './wire.js'

export class SeedTransport implements Transport {
  readonly dialect = 'seed'
  readonly resumeRepeatsRequest = true

  constructor(
    private readonly http: HttpClient,
    /** The agent's base URL: the card's `url`. */
    private readonly base: string,
  ) {}

  send(request: SendRequest, options: SendOptions): Promise<RemoteTask> {
    return this.#task('POST', '/tasks/send', body(request), options)
  }

  stream(request: SendRequest, options: CallOptions): AsyncIterable<StreamItem> {
    return this.#subscribe(request, undefined, options)
  }

  resubscribe(
    _taskId: string,
    from: { cursor?: string; request: SendRequest },
    options: CallOptions,
  ): AsyncIterable<StreamItem> {
    return this.#subscribe(from.request, from.cursor, options)
  }

  get(taskId: string, options: CallOptions & { historyLength?: number }): Promise<RemoteTask> {
    const query =
      options.historyLength === undefined ? '' : `?historyLength=${options.historyLength}`
    return this.#task('GET', `/tasks/${encodeURIComponent(taskId)}${query}`, undefined, options)
  }

  cancel(taskId: string, options: CallOptions): Promise<RemoteTask> {
    return this.#task('POST', `/tasks/${encodeURIComponent(taskId)}/cancel`, undefined, options)
  }

  continue(task: { id: string }, request: SendRequest, options: SendOptions): Promise<RemoteTask> {
    const { message } = body(request)
    const path = `/tasks/${encodeURIComponent(task.id)}/send`
    return this.#task('POST', path, { id: task.id, message }, options)
  }

  async #task(
    method: 'GET' | 'POST',
    path: string,
    payload: unknown,
    options: CallOptions,
  ): Promise<RemoteTask> {
    const reply = await this.http.text(
      { method, url: `${this.base}${path}`, ...(payload !== undefined && { body: payload }) },
      options,
    )
    if (reply.status < 200 || reply.status >= 300) {
      throw agentErrorOf(reply.status, reply.body, reply.headers)
    }
    const what = `The reply to ${method} ${path}`
    return decode(SeedTaskReply, parseJson(reply.body, what), what, taskFromSeed)
  }

  async *#subscribe(
    request: SendRequest,
    lastEventId: string | undefined,
    options: CallOptions,
  ): AsyncGenerator<StreamItem> {
    const reply = await this.http.open(
      {
        method: 'POST',
        url: `${this.base}/tasks/sendSubscribe`,
        body: body(request),
        headers: {
          accept: 'text/event-stream',
          ...(lastEventId !== undefined && { 'last-event-id': lastEventId }),
        },
      },
      options,
    )
    reply.stopTimer()
    try {
      const { response } = reply
      if (!response.ok || !response.body) {
        const text = await response.text().catch(() => '')
        throw agentErrorOf(response.status, text, response.headers)
      }
      for await (const frame of readSse(response.body, reply.failure)) {
        const what = 'A /tasks/sendSubscribe event'
        const data = parseJson(frame.data, what)
        if (frame.event === 'error') throw agentErrorOf(500, frame.data)
        const task = decode(SeedTaskReply, data, what, taskFromSeed)
        yield { event: task, ...(frame.id !== undefined && { cursor: frame.id }) }
      }
    } finally {
      reply.close()
    }
  }
}

/** The request body; the same request always gives the same body, so a resume repeats it. */
function body(request: SendRequest) {
  const { message } = request
  return {
    id: request.taskId ?? randomUUID(),
    ...(request.contextId !== undefined && { sessionId: request.contextId }),
    message: {
      role: 'user' as const,
      parts: message.parts.map(partToSeed),
      ...(message.metadata && { metadata: message.metadata }),
    },
    ...(request.metadata && { metadata: request.metadata }),
  }
}
