/**
 * What can go wrong when calling an agent, as classes a caller can tell apart. An agent's own
 * error keeps its words: the HTTP status, the dialect's code, its message and its data.
 */

export class A2AClientError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = new.target.name
  }
}

/** What kind of problem made a card unusable. */
export type AgentCardProblem =
  'http-error' | 'not-found' | 'not-json' | 'invalid-card' | 'unsupported'

/** The Agent Card could not be fetched, or it is not a card this client can use. */
export class AgentCardError extends A2AClientError {
  readonly problem: AgentCardProblem
  /** The first card field that is wrong (a dotted path), when the card has the wrong shape. */
  readonly field: string | undefined

  constructor(
    readonly url: string,
    readonly reason: string,
    options?: { cause?: unknown; problem?: AgentCardProblem; field?: string },
  ) {
    super(`Agent Card at ${url} is not usable: ${reason}`, options)
    this.problem = options?.problem ?? 'invalid-card'
    this.field = options?.field
  }
}

/** The card does not declare the skill a caller asked for. */
export class SkillNotDeclaredError extends A2AClientError {
  constructor(
    readonly skillId: string,
    readonly offered: readonly string[],
  ) {
    super(
      `The agent does not declare skill "${skillId}"; it offers: ${offered.join(', ') || '(none)'}`,
    )
  }
}

export interface AgentErrorFields {
  /** The HTTP status of the reply that carried the error. */
  status: number
  /** The dialect's code: a JSON-RPC number (-32001) or the seed dialect's name (TASK_NOT_FOUND). */
  code: number | string
  /** The same error in A2A words for every dialect (TASK_NOT_FOUND, …) when it is known. */
  reason?: string
  /** JSON-RPC `error.data`, google.rpc `details`, or the seed error's other fields. */
  data?: unknown
  /**
   * How long the agent asked the caller to wait before trying again, in ms, when it said: in
   * the error, or else in the HTTP Retry-After header of a 429 or 5xx reply.
   */
  retryAfterMs?: number
}

/** The agent answered with an error. `message` is the agent's own message, unchanged. */
export class AgentError extends A2AClientError {
  readonly status: number
  readonly code: number | string
  readonly reason: string | undefined
  readonly data: unknown
  /**
   * How long the agent asked the caller to wait before trying again, in ms, when it said: in
   * the error, or else in the HTTP Retry-After header of a 429 or 5xx reply.
   */
  readonly retryAfterMs: number | undefined

  constructor(message: string, fields: AgentErrorFields) {
    super(message)
    this.status = fields.status
    this.code = fields.code
    this.reason = fields.reason
    this.data = fields.data
    this.retryAfterMs = fields.retryAfterMs
  }

  /**
   * The agent cannot take the request now: retry later, or elsewhere. HTTP 429 or 503, the same
   * said in a JSON-RPC error (which comes with HTTP 200 in a stream), or a delay to wait.
   */
  get busy(): boolean {
    return (
      [429, 503].includes(this.status) ||
      BUSY_REASONS.includes(this.reason ?? '') ||
      this.retryAfterMs !== undefined
    )
  }

  /** The agent refused the credentials: HTTP 401 or 403, or the same in the dialect's words. */
  get credentialsRefused(): boolean {
    return [401, 403].includes(this.status) || AUTH_REASONS.includes(this.reason ?? '')
  }

  /** The agent failed on its own side: HTTP 5xx, or JSON-RPC's internal error. */
  get agentFault(): boolean {
    return this.status >= 500 || this.reason === 'INTERNAL'
  }
}

/** The agent is down for a moment (its task store, say): the same request may work shortly. */
const UNAVAILABLE_REASONS = ['SERVICE_UNAVAILABLE', 'UNAVAILABLE']
const BUSY_REASONS = [
  'ACTIVE_TASK_LIMIT',
  'STREAM_LIMIT',
  'RATE_LIMIT_EXCEEDED',
  'RATE_LIMITED',
  'RESOURCE_EXHAUSTED',
  ...UNAVAILABLE_REASONS,
]
const AUTH_REASONS = ['UNAUTHENTICATED', 'PERMISSION_DENIED', 'FORBIDDEN', 'UNAUTHORIZED']

/** The token provider (the `token` option's function) threw: no request was sent. */
export class TokenProviderError extends A2AClientError {
  constructor(cause: unknown) {
    super(`The token provider failed: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    })
  }
}

/** The agent answered, but not with anything its dialect allows (A2A's InvalidAgentResponse). */
export class InvalidAgentResponseError extends A2AClientError {
  constructor(
    message: string,
    readonly body?: string,
  ) {
    super(message)
  }
}

/** The request never got an answer: refused, reset, or dropped mid-stream. */
export class AgentUnreachableError extends A2AClientError {}

/** The call took longer than its timeout. */
export class A2ATimeoutError extends A2AClientError {
  constructor(
    what: string,
    readonly timeoutMs: number,
  ) {
    super(`${what} timed out after ${timeoutMs} ms`)
  }
}

/** The card says the agent does not stream; use `send` and `waitForCompletion` instead. */
export class StreamingNotSupportedError extends A2AClientError {
  constructor(agentName: string) {
    super(`Agent "${agentName}" does not stream (capabilities.streaming is not true)`)
  }
}

/** A stream dropped and could not be resumed within its retries. */
export class StreamInterruptedError extends A2AClientError {
  constructor(
    readonly taskId: string,
    readonly attempts: number,
    cause: unknown,
  ) {
    super(`The stream of task ${taskId} dropped and ${attempts} reconnects failed`, { cause })
  }
}

/**
 * Worth another try: the connection failed, or the agent said it is unavailable for a moment
 * (a gateway's 502/503/504, or SERVICE_UNAVAILABLE in any dialect, also as an in-stream error).
 */
export const isRetryable = (error: unknown): boolean =>
  error instanceof AgentUnreachableError ||
  error instanceof A2ATimeoutError ||
  (error instanceof AgentError &&
    ([502, 503, 504].includes(error.status) || UNAVAILABLE_REASONS.includes(error.reason ?? '')))

/** The least time to wait before trying again after `error`: what the agent asked for, if any. */
export const retryDelayOf = (error: unknown): number =>
  error instanceof AgentError ? (error.retryAfterMs ?? 0) : 0
