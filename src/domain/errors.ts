/**
 * Every error a caller can see, as a named class with a stable code. Each dialect has ONE table
 * that maps these codes to its wire format (src/protocol/<dialect>/errors.ts); handlers throw,
 * they never build error replies.
 */
import type { TaskState } from './model.js'

export type A2AErrorCode =
  | 'TASK_NOT_FOUND'
  | 'TASK_NOT_CANCELABLE'
  | 'INVALID_TASK_STATE'
  | 'TASK_ID_CONFLICT'
  | 'UNKNOWN_SKILL'
  | 'INVALID_REQUEST'
  | 'LIMIT_EXCEEDED'
  | 'ACTIVE_TASK_LIMIT'
  | 'STREAM_LIMIT'
  | 'MALFORMED_JSON'
  | 'UNSUPPORTED_CONTENT_TYPE'
  | 'PAYLOAD_TOO_LARGE'
  | 'HEADERS_TOO_LARGE'
  | 'MALFORMED_HTTP'
  | 'REQUEST_TIMEOUT'
  | 'ROUTE_NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'SERVICE_UNAVAILABLE'
  | 'INTERNAL_ERROR'
  | 'UNSUPPORTED_OPERATION'
  | 'PUSH_NOTIFICATION_NOT_SUPPORTED'
  | 'EXTENDED_CARD_NOT_CONFIGURED'
  | 'VERSION_NOT_SUPPORTED'
  | 'CONTENT_TYPE_NOT_SUPPORTED'
  | 'METHOD_NOT_FOUND'
  | 'INVALID_RPC_REQUEST'
  | 'RATE_LIMITED'
  | 'UNAUTHENTICATED'
  | 'PERMISSION_DENIED'
  | 'AGENT_NOT_FOUND'
  | 'AGENT_CARD_REJECTED'

export abstract class A2AError extends Error {
  abstract readonly code: A2AErrorCode
  /** Safe, structured facts for the caller (never internals). */
  readonly details: Record<string, unknown>

  constructor(message: string, details: Record<string, unknown> = {}) {
    // An A2AError is a refusal, told apart by its code and message and thrown where it is
    // decided: its stack is never shown or logged (a server fault logs its cause's). Capturing
    // one would cost a refused request more than all its other work: floods of 401s, 404s and
    // 429s stay cheap without it.
    const { stackTraceLimit } = Error
    Error.stackTraceLimit = 0
    super(message)
    Error.stackTraceLimit = stackTraceLimit
    this.name = new.target.name
    this.details = details
  }
}

export class TaskNotFoundError extends A2AError {
  readonly code = 'TASK_NOT_FOUND'
  constructor(taskId: string) {
    super(`Task ${taskId} not found`, { taskId })
  }
}

export class TaskNotCancelableError extends A2AError {
  readonly code = 'TASK_NOT_CANCELABLE'
  constructor(taskId: string, state: TaskState) {
    super(`Task ${taskId} is ${state} and cannot be canceled`, { taskId, state })
  }
}

/** A message for a task that is not waiting for one (only input-required tasks continue). */
export class InvalidTaskStateError extends A2AError {
  readonly code = 'INVALID_TASK_STATE'
  constructor(taskId: string, state: TaskState, expected: readonly TaskState[]) {
    super(`Task ${taskId} is ${state}; it accepts a message only when ${expected.join(' or ')}`, {
      taskId,
      state,
    })
  }
}

export class TaskIdConflictError extends A2AError {
  readonly code = 'TASK_ID_CONFLICT'
  constructor(taskId: string) {
    super(
      `Task ${taskId} already exists, from a different request (another message, sessionId, skill or caller); send a new id`,
      { taskId },
    )
  }
}

export class UnknownSkillError extends A2AError {
  readonly code = 'UNKNOWN_SKILL'
  constructor(skillId: string, known: readonly string[]) {
    super(`Unknown skill "${skillId}"; this agent offers: ${known.join(', ')}`, { skillId })
  }
}

/** The request does not have the required shape; `field` is a dotted path into the body. */
export class InvalidRequestError extends A2AError {
  readonly code = 'INVALID_REQUEST'
  readonly field: string | undefined
  constructor(message: string, field?: string) {
    super(field ? `${field}: ${message}` : message, field ? { field } : {})
    this.field = field
  }
}

export class LimitExceededError extends A2AError {
  readonly code = 'LIMIT_EXCEEDED'
  constructor(what: string, limit: number, field: string) {
    super(`${field}: ${what} exceeds the limit of ${limit}`, { field, limit })
  }
}

/**
 * A per-caller cap refused the request (HTTP 429): `cap` names it, as the audit log and the
 * metrics count it, and `limit` is its size. When a slot frees is unknown (a task or a stream
 * ends when it ends), so the caller is told to retry in a second (`Retry-After: 1`).
 */
export abstract class CapReachedError extends A2AError {
  abstract readonly cap: 'active-tasks' | 'streams'
  constructor(
    message: string,
    readonly limit: number,
  ) {
    super(message, { limit, retryAfterSeconds: 1 })
  }
}

/** The caller has as many open tasks as it may: it can retry once one of them ends. */
export class ActiveTaskLimitError extends CapReachedError {
  readonly code = 'ACTIVE_TASK_LIMIT'
  readonly cap = 'active-tasks'
  constructor(limit: number) {
    super(
      `You already have ${limit} open task${limit === 1 ? '' : 's'} (running, or waiting for your answer), the most this agent holds at once for one caller; answer or cancel one, or retry once one has ended`,
      limit,
    )
  }
}

/** One caller has as many streams open on this server process as it may. */
export class StreamLimitError extends CapReachedError {
  readonly code = 'STREAM_LIMIT'
  readonly cap = 'streams'
  constructor(limit: number) {
    super(
      `You already have ${limit} open stream${limit === 1 ? '' : 's'} here, the most this server keeps open for one caller; close one, or read the task with a get`,
      limit,
    )
  }
}

export class MalformedJsonError extends A2AError {
  readonly code = 'MALFORMED_JSON'
  constructor(message = 'The request body is not valid JSON') {
    super(message)
  }
}

export class UnsupportedContentTypeError extends A2AError {
  readonly code = 'UNSUPPORTED_CONTENT_TYPE'
  constructor(contentType: string | undefined, expected: string) {
    super(`Content-Type ${contentType ?? '(none)'} is not supported; send ${expected}`, {
      expected,
    })
  }
}

/** A body sent compressed (or otherwise encoded): 415, as RFC 9110 §15.5.16 says. */
export class UnsupportedContentEncodingError extends A2AError {
  readonly code = 'UNSUPPORTED_CONTENT_TYPE'
  constructor(encoding: string) {
    super(`Content-Encoding ${encoding} is not supported; send the body uncompressed`, {
      encoding,
    })
  }
}

export class PayloadTooLargeError extends A2AError {
  readonly code = 'PAYLOAD_TOO_LARGE'
  constructor(limit: number) {
    super(`The request body exceeds the limit of ${limit} bytes`, { limit })
  }
}

/** Bytes that Node's HTTP parser cannot read as an HTTP/1.1 request. */
export class MalformedHttpError extends A2AError {
  readonly code = 'MALFORMED_HTTP'
  constructor() {
    super('The request is not valid HTTP/1.1')
  }
}

/** The request's headers are larger than Node's HTTP parser reads (16 KiB by default). */
export class HeadersTooLargeError extends A2AError {
  readonly code = 'HEADERS_TOO_LARGE'
  constructor() {
    super('The request headers are too large; send them under 16 KiB')
  }
}

/** The client did not send a whole request within REQUEST_TIMEOUT_MS. */
export class RequestTimeoutError extends A2AError {
  readonly code = 'REQUEST_TIMEOUT'
  constructor() {
    super('The request did not arrive in full in time; send it again')
  }
}

export class RouteNotFoundError extends A2AError {
  readonly code = 'ROUTE_NOT_FOUND'
  constructor(method: string, url: string) {
    super(`No route for ${method} ${url}`)
  }
}

/** A path some route serves, with another method: `allowed` lists the ones it takes. */
export class MethodNotAllowedError extends A2AError {
  readonly code = 'METHOD_NOT_ALLOWED'
  constructor(method: string, path: string, allowed: readonly string[]) {
    super(`${method} is not served at ${path}; it takes ${allowed.join(', ')}`, { allowed })
  }
}

export class ServiceUnavailableError extends A2AError {
  readonly code = 'SERVICE_UNAVAILABLE'
  /**
   * `cause` is for the log (e.g. the Redis error behind it); callers see only `reason`, and
   * `retryAfterSeconds` (default 1: what a reconnection attempt takes at most), also sent as
   * `Retry-After`.
   */
  constructor(reason: string, options: { cause?: unknown; retryAfterSeconds?: number } = {}) {
    super(reason, { retryAfterSeconds: options.retryAfterSeconds ?? 1 })
    if ('cause' in options) this.cause = options.cause
  }
}

/** Anything unexpected. Its message is fixed so that nothing internal reaches a caller. */
export class InternalError extends A2AError {
  readonly code = 'INTERNAL_ERROR'
  constructor() {
    super('Internal server error')
  }
}

/** The operation exists in A2A but not for this task or agent (e.g. a message to a terminal task). */
export class UnsupportedOperationError extends A2AError {
  readonly code = 'UNSUPPORTED_OPERATION'
}

export class PushNotificationNotSupportedError extends A2AError {
  readonly code = 'PUSH_NOTIFICATION_NOT_SUPPORTED'
  constructor() {
    super('This agent does not send push notifications')
  }
}

export class ExtendedCardNotConfiguredError extends A2AError {
  readonly code = 'EXTENDED_CARD_NOT_CONFIGURED'
  constructor() {
    super('This agent has no extended agent card configured')
  }
}

export class VersionNotSupportedError extends A2AError {
  readonly code = 'VERSION_NOT_SUPPORTED'
  constructor(version: string, supported: readonly string[]) {
    super(
      `A2A protocol version '${version}' is not supported; supported versions: ${supported.join(', ')}`,
      { version, supported: supported.join(',') },
    )
  }
}

/** A message part whose media type the skill does not accept (its `inputModes`). */
export class ContentTypeNotSupportedError extends A2AError {
  readonly code = 'CONTENT_TYPE_NOT_SUPPORTED'
  constructor(mediaType: string, field: string, accepted: readonly string[]) {
    super(
      `${field}: media type ${mediaType} is not accepted; send one of: ${accepted.join(', ')}`,
      {
        field,
        mediaType,
      },
    )
  }
}

export class MethodNotFoundError extends A2AError {
  readonly code = 'METHOD_NOT_FOUND'
  /** `hint`: a sentence on what would find it (a method of another protocol version). */
  constructor(method: string, hint?: string) {
    super(`Method not found: ${method}${hint ? `. ${hint}` : ''}`, { method })
  }
}

/** A JSON-RPC envelope that is not a valid request object (no `jsonrpc: "2.0"`, no method, …). */
export class InvalidRpcRequestError extends A2AError {
  readonly code = 'INVALID_RPC_REQUEST'
}

/** Too many requests from one caller (or address) in the current window. */
export class RateLimitedError extends A2AError {
  readonly code = 'RATE_LIMITED'
  /** Seconds until the window resets; also sent as `Retry-After`. */
  readonly retryAfterSeconds: number
  constructor(limit: number, retryAfterSeconds: number) {
    super(
      `Rate limit exceeded: at most ${limit} requests per window; retry in ${retryAfterSeconds} s`,
      {
        limit,
        retryAfterSeconds,
      },
    )
    this.retryAfterSeconds = retryAfterSeconds
  }
}

/** No agent with this id is in the agent registry. */
export class AgentNotFoundError extends A2AError {
  readonly code = 'AGENT_NOT_FOUND'
  constructor(agentId: string) {
    super(`Agent ${agentId} is not registered`, { agentId })
  }
}

/**
 * A message's data input does not match its skill's `inputSchema`. `field` is the path into the
 * request; `pointer` the JSON pointer into the data input the skill would see.
 */
export class SkillInputInvalidError extends A2AError {
  readonly code = 'INVALID_REQUEST'
  constructor(skillId: string, field: string, pointer: string, problem: string) {
    super(`${field}: ${problem} (the input schema of skill "${skillId}")`, {
      field,
      pointer,
      skillId,
    })
  }
}

/**
 * Missing or unusable credentials (HTTP 401). `challenge` is the `WWW-Authenticate` value
 * (RFC 6750); the message says what was wrong without echoing the token.
 */
export class AuthenticationError extends A2AError {
  readonly code = 'UNAUTHENTICATED'
  readonly challenge: string
  /**
   * Why, in words from a fixed set (the `reason` label of a2a_auth_failures_total): the
   * message itself, unless it names something the request sent (an Authorization scheme).
   */
  readonly reason: string
  constructor(message: string, challenge: string, reason: string = message) {
    super(message)
    this.challenge = challenge
    this.reason = reason
  }
}

/** A valid token without the scope an operation needs (HTTP 403, `insufficient_scope`). */
export class PermissionDeniedError extends A2AError {
  readonly code = 'PERMISSION_DENIED'
  readonly challenge: string
  /** The scopes the caller lacked. */
  readonly missing: readonly string[]
  /** What was refused, when it is known (the audit record names it; the caller is not told). */
  readonly refused: { skillId?: string; taskId?: string }
  constructor(
    missing: readonly string[],
    what: string,
    refused: { skillId?: string; taskId?: string } = {},
  ) {
    super(`The token lacks the scope ${missing.join(' ')} needed to ${what}`, {
      requiredScopes: missing.join(' '),
    })
    this.challenge = `Bearer error="insufficient_scope", scope="${missing.join(' ')}"`
    this.missing = missing
    this.refused = refused
  }
}

/**
 * The registry refused an agent because its card could not be used: `problem` says what kind of
 * failure (unreachable, timeout, http-error, not-found, not-json, invalid-card, unsupported) and
 * `field` names the card field that is wrong, when one is.
 */
export class AgentCardRejectedError extends A2AError {
  readonly code = 'AGENT_CARD_REJECTED'
  constructor(url: string, problem: string, reason: string, field?: string) {
    super(`The Agent Card of ${url} was refused: ${reason}`, {
      url,
      problem,
      ...(field !== undefined && { field }),
    })
  }
}
