/**
 * Every request the client makes: the bearer token (asked for on each request, so a provider
 * can refresh it), the per-call timeout and the caller's AbortSignal, and network failures
 * turned into the client's error classes.
 */
import { A2ATimeoutError, AgentUnreachableError, TokenProviderError } from './errors.js'

/** A token, or a function that returns the current one. */
export type TokenProvider = string | (() => string | Promise<string>)

/** What every operation accepts. */
export interface CallOptions {
  signal?: AbortSignal
  /** Overrides the client's timeout for this call, in ms. */
  timeoutMs?: number
}

export interface HttpSettings {
  token?: TokenProvider
  timeoutMs: number
  headers?: Record<string, string>
  fetch?: typeof fetch
}

export interface HttpRequest {
  method: 'GET' | 'POST'
  url: string
  body?: unknown
  headers?: Record<string, string>
}

/** A reply whose body is still to be read; `signal` aborts with the caller's or the timeout. */
export interface OpenReply {
  response: Response
  signal: AbortSignal
  /** Stops the timeout, for a stream that may last longer than one call. */
  stopTimer: () => void
  /** The call is over: stops the timeout and lets go of the caller's signal. */
  close: () => void
  /** Turns an error from reading the body into the client's error classes. */
  failure: (error: unknown) => unknown
}

export class HttpClient {
  constructor(private readonly settings: HttpSettings) {}

  /** Sends the request; resolves once the status and headers have arrived. */
  async open(request: HttpRequest, options: CallOptions = {}): Promise<OpenReply> {
    const timeoutMs = options.timeoutMs ?? this.settings.timeoutMs
    const what = `${request.method} ${request.url}`
    const controller = new AbortController()
    const timer = setTimeout(
      () => controller.abort(new A2ATimeoutError(what, timeoutMs)),
      timeoutMs,
    )
    const onAbort = () => controller.abort(options.signal!.reason)
    if (options.signal?.aborted) onAbort()
    else options.signal?.addEventListener('abort', onAbort, { once: true })
    // A caller may pass one signal to many calls: each takes its listener off when it is over.
    const close = () => {
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', onAbort)
    }
    const failure = (error: unknown): unknown => {
      if (controller.signal.aborted) return controller.signal.reason
      return new AgentUnreachableError(`${what} failed: ${messageOf(error)}`, { cause: error })
    }
    try {
      const headers: Record<string, string> = {
        accept: 'application/json, text/event-stream',
        ...this.settings.headers,
        ...request.headers,
      }
      const token = await this.#token().catch((error: unknown) => {
        throw new TokenProviderError(error)
      })
      if (token !== undefined) headers.authorization = `Bearer ${token}`
      if (request.body !== undefined) headers['content-type'] = 'application/json'
      const response = await (this.settings.fetch ?? fetch)(request.url, {
        method: request.method,
        headers,
        ...(request.body !== undefined && { body: JSON.stringify(request.body) }),
        signal: controller.signal,
      })
      return {
        response,
        signal: controller.signal,
        stopTimer: () => clearTimeout(timer),
        close,
        failure,
      }
    } catch (error) {
      close()
      throw error instanceof TokenProviderError ? error : failure(error)
    }
  }

  /** Sends the request and reads the whole body as text. */
  async text(
    request: HttpRequest,
    options: CallOptions = {},
  ): Promise<{ status: number; body: string; contentType: string; headers: Headers }> {
    const reply = await this.open(request, options)
    try {
      const body = await reply.response.text()
      return {
        status: reply.response.status,
        body,
        contentType: reply.response.headers.get('content-type') ?? '',
        headers: reply.response.headers,
      }
    } catch (error) {
      throw reply.failure(error)
    } finally {
      reply.close()
    }
  }

  async #token(): Promise<string | undefined> {
    const { token } = this.settings
    return typeof token === 'function' ? await token() : token
  }
}

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause instanceof Error ? `: ${tlsProblem(error.cause)}` : ''
  return `${error.message}${cause}`
}

/**
 * OpenSSL's message is a multi-line dump ("…:error:0A00010B:SSL routines:…:wrong version
 * number:../deps/openssl/…"); its reason is what a person can act on.
 */
function tlsProblem(error: Error): string {
  const reason = /SSL routines:[^:]*:([^:]+):/.exec(error.message)?.[1]
  if (reason === undefined) return error.message
  const hint = reason === 'wrong version number' ? ' (is it plain http there, not https?)' : ''
  return `TLS failed: ${reason}${hint}`
}
