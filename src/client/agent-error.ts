/**
 * An agent's error reply, in whichever dialect it came: a JSON-RPC error object, the seed
 * dialect's `{error: {code, message}}`, or google.rpc.Status `{error: {code, status, message,
 * details}}`. Whatever the shape, the agent's own code and message survive.
 */
import { AgentError } from './errors.js'

/** A2A's names for the JSON-RPC codes, so that `reason` reads alike in every dialect. */
const RPC_REASONS: Record<number, string> = {
  [-32700]: 'PARSE_ERROR',
  [-32600]: 'INVALID_REQUEST',
  [-32601]: 'METHOD_NOT_FOUND',
  [-32602]: 'INVALID_PARAMS',
  [-32603]: 'INTERNAL',
  [-32001]: 'TASK_NOT_FOUND',
  [-32002]: 'TASK_NOT_CANCELABLE',
  [-32003]: 'PUSH_NOTIFICATION_NOT_SUPPORTED',
  [-32004]: 'UNSUPPORTED_OPERATION',
  [-32005]: 'CONTENT_TYPE_NOT_SUPPORTED',
  [-32006]: 'INVALID_AGENT_RESPONSE',
  [-32007]: 'EXTENDED_AGENT_CARD_NOT_CONFIGURED',
  [-32008]: 'EXTENSION_SUPPORT_REQUIRED',
  [-32009]: 'VERSION_NOT_SUPPORTED',
  // A2A leaves these to the server: this server's own codes (src/protocol/v10/errors.ts), which
  // its 0.3 replies carry without an ErrorInfo.
  [-32010]: 'RATE_LIMIT_EXCEEDED',
  [-32028]: 'STREAM_LIMIT',
  [-32029]: 'ACTIVE_TASK_LIMIT',
  [-32030]: 'UNAUTHENTICATED',
  [-32031]: 'PERMISSION_DENIED',
}

export interface RpcErrorObject {
  code: number
  message: string
  data?: unknown
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/** The ErrorInfo `reason` among google.rpc details, when there is one. */
function errorInfoReason(details: unknown): string | undefined {
  if (!Array.isArray(details)) return undefined
  for (const detail of details) {
    if (isRecord(detail) && typeof detail.reason === 'string') return detail.reason
  }
  return undefined
}

/** google.protobuf.Duration in JSON: seconds with up to nine decimals and an `s` ("1s", "1.5s"). */
const DURATION = /^(\d+(?:\.\d{1,9})?)s$/

/**
 * How long the agent asks the caller to wait before trying again, in ms: a google.rpc RetryInfo
 * among the details (1.0), or `retryAfterSeconds` (0.3's `data`, the seed error's fields).
 */
function retryDelayIn(details: unknown): number | undefined {
  if (Array.isArray(details)) {
    for (const detail of details) {
      const delay = isRecord(detail) ? detail.retryDelay : undefined
      const seconds = typeof delay === 'string' ? DURATION.exec(delay)?.[1] : undefined
      if (seconds !== undefined) return Number(seconds) * 1_000
    }
    return undefined
  }
  const seconds = isRecord(details) ? details.retryAfterSeconds : undefined
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0
    ? seconds * 1_000
    : undefined
}

/**
 * How long the HTTP `Retry-After` header of a 429 or 5xx reply asks the caller to wait, in ms:
 * delay-seconds, or an HTTP date (the time until then, never below 0). A proxy or load balancer
 * in front of the agent says it this way; it counts when the body does not say.
 */
export function retryAfterHeader(status: number, headers?: Headers): number | undefined {
  if (status !== 429 && status < 500) return undefined
  const value = headers?.get('retry-after')?.trim()
  if (value === undefined || value === '') return undefined
  if (/^\d+$/.test(value)) return Number(value) * 1_000
  // An HTTP date begins with the day's name ("Sun, 06 Nov 1994 08:49:37 GMT"): anything else
  // (Date.parse takes "1.5" for a date) is no delay.
  const at = /^[a-z]{3}/i.test(value) ? Date.parse(value) : Number.NaN
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now())
}

/**
 * The A2A name of a JSON-RPC code. 0.3 has no ErrorInfo and gives "unavailable" the internal
 * error's code; an internal error that says when to try again is the agent unavailable for a
 * moment, not a fault of its own (google.rpc's UNAVAILABLE, the retryable one).
 */
const rpcReason = (code: number, retryAfterMs: number | undefined): string | undefined =>
  code === -32603 && retryAfterMs !== undefined ? 'SERVICE_UNAVAILABLE' : RPC_REASONS[code]

/** `headers` are the reply's: its Retry-After counts when the error's data gives no delay. */
export function rpcAgentError(
  error: RpcErrorObject,
  status: number,
  headers?: Headers,
): AgentError {
  const asked = retryDelayIn(error.data)
  const retryAfterMs = asked ?? retryAfterHeader(status, headers)
  return new AgentError(error.message, {
    status,
    code: error.code,
    reason: errorInfoReason(error.data) ?? rpcReason(error.code, asked),
    data: error.data,
    ...(retryAfterMs !== undefined && { retryAfterMs }),
  })
}

export function isRpcErrorObject(value: unknown): value is RpcErrorObject {
  return isRecord(value) && typeof value.code === 'number' && typeof value.message === 'string'
}

/**
 * The AgentError a non-success reply stands for; a body that is not an A2A error is summed up.
 * `headers` are the reply's: its Retry-After counts when the body gives no delay.
 */
export function agentErrorOf(status: number, body: string, headers?: Headers): AgentError {
  const header = retryAfterHeader(status, headers)
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    parsed = undefined
  }
  const error = isRecord(parsed) ? parsed.error : undefined
  if (isRpcErrorObject(error) && 'jsonrpc' in (parsed as object)) {
    return rpcAgentError(error, status, headers)
  }
  if (isRecord(error) && typeof error.message === 'string') {
    const { code, message, details, ...rest } = error
    // google.rpc.Status: a numeric code (the HTTP status) and ErrorInfo details.
    if (typeof code === 'number') {
      const retryAfterMs = retryDelayIn(details) ?? header
      return new AgentError(message, {
        status,
        code,
        reason:
          errorInfoReason(details) ?? (typeof rest.status === 'string' ? rest.status : undefined),
        data: details,
        ...(retryAfterMs !== undefined && { retryAfterMs }),
      })
    }
    if (typeof code === 'string') {
      const retryAfterMs = retryDelayIn(rest) ?? header
      return new AgentError(message, {
        status,
        code,
        reason: code,
        ...(Object.keys(rest).length > 0 && { data: rest }),
        ...(retryAfterMs !== undefined && { retryAfterMs }),
      })
    }
  }
  return new AgentError(summaryOf(status, body), {
    status,
    code: status,
    ...(header !== undefined && { retryAfterMs: header }),
  })
}

/**
 * The error's message with its HTTP status in front, unless it begins with it already (the
 * summary of an HTML page or of an empty body).
 */
export const withStatus = (error: AgentError): string =>
  error.message.startsWith(`HTTP ${error.status}`)
    ? error.message
    : `HTTP ${error.status}: ${error.message}`

/** The most a message quotes of a body that is not an A2A error, and of an HTML page's title. */
const QUOTED_MAX = 200
const TITLE_MAX = 80

/**
 * One line that says what a body that is not an A2A error holds, for a message: an HTML page
 * is a proxy's or a web server's error page, not the agent's reply, and says so with the status
 * and its title (none of its markup); any other text is quoted by its first line.
 */
function summaryOf(status: number, body: string): string {
  const text = body.trim()
  if (text === '') return `HTTP ${status}`
  if (/^<(!doctype html|html|head|body)\b/i.test(text)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.replace(/\s+/g, ' ').trim()
    const page = title ? `an HTML page, "${clipped(title, TITLE_MAX)}"` : 'an HTML page'
    return `HTTP ${status} from something in front of the agent (a proxy, a web server): ${page}`
  }
  return clipped(text.split('\n', 1)[0]!.trim(), QUOTED_MAX)
}

const clipped = (text: string, max: number): string =>
  text.length > max ? `${text.slice(0, max)}…` : text
