/**
 * A2A over JSON-RPC 2.0 (1.0 or 0.3, by codec): one POST endpoint; streams are SSE whose
 * frames each carry one JSON-RPC response. JSON-RPC streams have no event ids, so a dropped
 * stream resumes by subscribing to the task again, which starts with its current state.
 */
import { randomUUID } from 'node:crypto'
import { agentErrorOf, isRpcErrorObject, rpcAgentError } from '../agent-error.js'
import { parseJson } from '../decode.js'
import { InvalidAgentResponseError } from '../errors.js'
import type { CallOptions, HttpClient } from '../http.js'
import type { RemoteTask, SendResult } from '../model.js'
import { readSse } from '../sse.js'
import type { Dialect, SendOptions, SendRequest, StreamItem, Transport } from '../transport.js'
import type { RpcCodec } from './codec.js'

export class JsonRpcTransport implements Transport {
  readonly dialect: Dialect
  readonly resumeRepeatsRequest = false

  constructor(
    private readonly http: HttpClient,
    private readonly url: string,
    private readonly codec: RpcCodec,
  ) {
    this.dialect = `jsonrpc-${codec.version}`
  }

  async send(request: SendRequest, options: SendOptions): Promise<SendResult> {
    const params = this.codec.sendParams(request, options.blocking)
    return this.codec.sendResult(await this.#call(this.codec.methods.send, params, options))
  }

  stream(request: SendRequest, options: CallOptions): AsyncIterable<StreamItem> {
    const params = this.codec.sendParams(request, undefined)
    return this.#stream(this.codec.methods.stream, params, options)
  }

  resubscribe(taskId: string, _from: unknown, options: CallOptions): AsyncIterable<StreamItem> {
    return this.#stream(this.codec.methods.resubscribe, { id: taskId }, options)
  }

  async get(
    taskId: string,
    options: CallOptions & { historyLength?: number },
  ): Promise<RemoteTask> {
    const params = {
      id: taskId,
      ...(options.historyLength !== undefined && { historyLength: options.historyLength }),
    }
    return this.codec.task(await this.#call(this.codec.methods.get, params, options))
  }

  async cancel(taskId: string, options: CallOptions): Promise<RemoteTask> {
    return this.codec.task(await this.#call(this.codec.methods.cancel, { id: taskId }, options))
  }

  continue(
    task: { id: string; contextId: string },
    request: SendRequest,
    options: SendOptions,
  ): Promise<SendResult> {
    return this.send({ ...request, taskId: task.id, contextId: task.contextId }, options)
  }

  async #call(method: string, params: unknown, options: CallOptions): Promise<unknown> {
    const reply = await this.http.text(
      {
        method: 'POST',
        url: this.url,
        body: envelope(method, params),
        headers: this.codec.headers,
      },
      options,
    )
    return resultOf(reply.status, reply.body, `The reply to ${method}`, reply.headers)
  }

  async *#stream(
    method: string,
    params: unknown,
    options: CallOptions,
  ): AsyncGenerator<StreamItem> {
    const reply = await this.http.open(
      {
        method: 'POST',
        url: this.url,
        body: envelope(method, params),
        headers: { ...this.codec.headers, accept: 'text/event-stream' },
      },
      options,
    )
    try {
      const { response } = reply
      const type = response.headers.get('content-type') ?? ''
      if (!type.startsWith('text/event-stream') || !response.body) {
        // An error (or anything else) before the stream started comes as a plain JSON reply.
        let text: string
        try {
          text = await response.text()
        } catch (error) {
          throw reply.failure(error)
        }
        resultOf(response.status, text, `The reply to ${method}`, response.headers)
        throw new InvalidAgentResponseError(`${method} answered without a stream`, text)
      }
      reply.stopTimer()
      for await (const frame of readSse(response.body, reply.failure)) {
        const result = resultOf(response.status, frame.data, `A ${method} event`)
        yield { event: this.codec.streamResult(result) }
      }
    } finally {
      reply.close()
    }
  }
}

const envelope = (method: string, params: unknown) => ({
  jsonrpc: '2.0',
  id: randomUUID(),
  method,
  params,
})

/**
 * The `result` of a JSON-RPC response; its `error` (or a non-JSON-RPC failure) is thrown.
 * `headers` are the reply's (a stream's frames have none of their own).
 */
function resultOf(status: number, body: string, what: string, headers?: Headers): unknown {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    if (status < 200 || status >= 300) throw agentErrorOf(status, body, headers)
    parsed = parseJson(body, what)
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new InvalidAgentResponseError(`${what} is not a JSON-RPC response`, body.slice(0, 2_000))
  }
  const response = parsed as Record<string, unknown>
  if (isRpcErrorObject(response.error)) throw rpcAgentError(response.error, status, headers)
  if (status < 200 || status >= 300) throw agentErrorOf(status, body, headers)
  if (!('result' in response)) {
    throw new InvalidAgentResponseError(
      `${what} has neither result nor error`,
      body.slice(0, 2_000),
    )
  }
  return response.result
}
