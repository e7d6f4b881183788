/**
 * A2A 1.0 errors: ONE table from error code to the JSON-RPC code, the google.rpc.ErrorInfo
 * reason, and the HTTP+JSON status (HTTP status + google.rpc.Code name). JSON-RPC carries the
 * ErrorInfo in `error.data`; HTTP+JSON in the google.rpc.Status `error.details`.
 */
import type { A2AError, A2AErrorCode } from '../../domain/errors.js'
import { TaskState } from '../../domain/model.js'
import type { JsonRpcId } from '../a2a/jsonrpc.js'
import { rpcError } from '../a2a/jsonrpc.js'
import { stateToV10 } from './codec.js'

interface Mapping {
  rpc: number
  reason: string
  http: number
  status: string
}

const A2A = (rpc: number, reason: string, http: number, status: string): Mapping => ({
  rpc,
  reason,
  http,
  status,
})
const INVALID_PARAMS = A2A(-32602, 'INVALID_PARAMS', 400, 'INVALID_ARGUMENT')
const UNSUPPORTED = A2A(-32004, 'UNSUPPORTED_OPERATION', 400, 'UNIMPLEMENTED')

const TABLE: Record<A2AErrorCode, Mapping> = {
  TASK_NOT_FOUND: A2A(-32001, 'TASK_NOT_FOUND', 404, 'NOT_FOUND'),
  TASK_NOT_CANCELABLE: A2A(-32002, 'TASK_NOT_CANCELABLE', 409, 'FAILED_PRECONDITION'),
  PUSH_NOTIFICATION_NOT_SUPPORTED: A2A(
    -32003,
    'PUSH_NOTIFICATION_NOT_SUPPORTED',
    400,
    'UNIMPLEMENTED',
  ),
  UNSUPPORTED_OPERATION: UNSUPPORTED,
  // A message to a task that is not waiting for one: the operation does not apply to it.
  INVALID_TASK_STATE: UNSUPPORTED,
  CONTENT_TYPE_NOT_SUPPORTED: A2A(-32005, 'CONTENT_TYPE_NOT_SUPPORTED', 415, 'INVALID_ARGUMENT'),
  UNSUPPORTED_CONTENT_TYPE: A2A(-32005, 'CONTENT_TYPE_NOT_SUPPORTED', 415, 'INVALID_ARGUMENT'),
  EXTENDED_CARD_NOT_CONFIGURED: A2A(
    -32007,
    'EXTENDED_AGENT_CARD_NOT_CONFIGURED',
    400,
    'FAILED_PRECONDITION',
  ),
  VERSION_NOT_SUPPORTED: A2A(-32009, 'VERSION_NOT_SUPPORTED', 400, 'UNIMPLEMENTED'),
  TASK_ID_CONFLICT: INVALID_PARAMS,
  UNKNOWN_SKILL: INVALID_PARAMS,
  INVALID_REQUEST: INVALID_PARAMS,
  LIMIT_EXCEEDED: INVALID_PARAMS,
  // A2A names no code for it: a server error code, and RESOURCE_EXHAUSTED as gRPC would say.
  ACTIVE_TASK_LIMIT: A2A(-32029, 'ACTIVE_TASK_LIMIT', 429, 'RESOURCE_EXHAUSTED'),
  STREAM_LIMIT: A2A(-32028, 'STREAM_LIMIT', 429, 'RESOURCE_EXHAUSTED'),
  MALFORMED_JSON: A2A(-32700, 'PARSE_ERROR', 400, 'INVALID_ARGUMENT'),
  INVALID_RPC_REQUEST: A2A(-32600, 'INVALID_REQUEST', 400, 'INVALID_ARGUMENT'),
  PAYLOAD_TOO_LARGE: A2A(-32600, 'PAYLOAD_TOO_LARGE', 413, 'INVALID_ARGUMENT'),
  HEADERS_TOO_LARGE: A2A(-32600, 'HEADERS_TOO_LARGE', 431, 'INVALID_ARGUMENT'),
  MALFORMED_HTTP: A2A(-32600, 'INVALID_REQUEST', 400, 'INVALID_ARGUMENT'),
  REQUEST_TIMEOUT: A2A(-32600, 'REQUEST_TIMEOUT', 408, 'DEADLINE_EXCEEDED'),
  METHOD_NOT_FOUND: A2A(-32601, 'METHOD_NOT_FOUND', 404, 'NOT_FOUND'),
  ROUTE_NOT_FOUND: A2A(-32601, 'METHOD_NOT_FOUND', 404, 'NOT_FOUND'),
  METHOD_NOT_ALLOWED: A2A(-32600, 'METHOD_NOT_ALLOWED', 405, 'UNIMPLEMENTED'),
  SERVICE_UNAVAILABLE: A2A(-32603, 'SERVICE_UNAVAILABLE', 503, 'UNAVAILABLE'),
  INTERNAL_ERROR: A2A(-32603, 'INTERNAL', 500, 'INTERNAL'),
  // 1.0 defines no rate-limit error; -32010 is the 0.1 draft's RateLimitExceeded, unused since.
  RATE_LIMITED: A2A(-32010, 'RATE_LIMIT_EXCEEDED', 429, 'RESOURCE_EXHAUSTED'),
  // A2A leaves auth codes to the server (-32007/-32008 were reused); see docs/security.md.
  UNAUTHENTICATED: A2A(-32030, 'UNAUTHENTICATED', 401, 'UNAUTHENTICATED'),
  PERMISSION_DENIED: A2A(-32031, 'PERMISSION_DENIED', 403, 'PERMISSION_DENIED'),
  // The agent registry's errors (its HTTP API speaks the seed dialect; the table is total).
  AGENT_NOT_FOUND: A2A(-32602, 'AGENT_NOT_FOUND', 404, 'NOT_FOUND'),
  AGENT_CARD_REJECTED: A2A(-32602, 'AGENT_CARD_REJECTED', 422, 'FAILED_PRECONDITION'),
}

export const ERROR_INFO_TYPE = 'type.googleapis.com/google.rpc.ErrorInfo'
export const BAD_REQUEST_TYPE = 'type.googleapis.com/google.rpc.BadRequest'
export const RETRY_INFO_TYPE = 'type.googleapis.com/google.rpc.RetryInfo'
export const ERROR_DOMAIN = 'a2a-protocol.org'

/** ErrorInfo metadata is strings; a task's state is named as 1.0 names it (TASK_STATE_…). */
const metadataValue = (key: string, value: unknown): string => {
  const state = key === 'state' ? TaskState.safeParse(value) : undefined
  return state?.success ? stateToV10(state.data) : String(value)
}

/**
 * ErrorInfo first; a BadRequest field violation when the error names a field; a RetryInfo when
 * the caller should wait.
 */
function errorDetails(error: A2AError, reason: string, message: string): Record<string, unknown>[] {
  const metadata = Object.fromEntries(
    Object.entries(error.details).map(([key, value]) => [
      key,
      key === 'field' ? v10Field(String(value)) : metadataValue(key, value),
    ]),
  )
  const details: Record<string, unknown>[] = [
    {
      '@type': ERROR_INFO_TYPE,
      reason,
      domain: ERROR_DOMAIN,
      ...(Object.keys(metadata).length > 0 && { metadata }),
    },
  ]
  const field = error.details.field
  if (typeof field === 'string') {
    details.push({
      '@type': BAD_REQUEST_TYPE,
      fieldViolations: [{ field: v10Field(field), description: message }],
    })
  }
  const retryAfter = error.details.retryAfterSeconds
  if (typeof retryAfter === 'number') {
    details.push({ '@type': RETRY_INFO_TYPE, retryDelay: `${retryAfter}s` })
  }
  return details
}

/**
 * The errors a JSON-RPC reply keeps the HTTP status of: the spec asks 401/403 for auth in every
 * binding, proxies and HTTP clients act on 413 and 429, and a request refused before it was
 * read as JSON-RPC (not HTTP, headers too large, too slow) is refused by HTTP.
 */
const RPC_KEEPS_HTTP_STATUS = new Set<A2AErrorCode>([
  'UNAUTHENTICATED',
  'PERMISSION_DENIED',
  'PAYLOAD_TOO_LARGE',
  'RATE_LIMITED',
  'ACTIVE_TASK_LIMIT',
  'STREAM_LIMIT',
  'MALFORMED_HTTP',
  'METHOD_NOT_ALLOWED',
  'HEADERS_TOO_LARGE',
  'REQUEST_TIMEOUT',
])

/**
 * The JSON-RPC reply: HTTP 200 like every JSON-RPC answer, except for a server fault (5xx) and
 * the errors above (which all still carry a JSON-RPC error object).
 */
export function v10RpcErrorReply(error: A2AError, id: JsonRpcId) {
  const mapping = TABLE[error.code]
  const statusCode =
    mapping.http >= 500 || RPC_KEEPS_HTTP_STATUS.has(error.code) ? mapping.http : 200
  const message = v10Message(error)
  return {
    statusCode,
    body: rpcError(id, {
      code: mapping.rpc,
      message,
      data: errorDetails(error, mapping.reason, message),
    }),
  }
}

/** The HTTP+JSON reply: the HTTP status and a google.rpc.Status body. */
export function v10RestErrorReply(error: A2AError) {
  const mapping = TABLE[error.code]
  const message = v10Message(error)
  return {
    statusCode: mapping.http,
    body: {
      error: {
        code: mapping.http,
        status: mapping.status,
        message,
        details: errorDetails(error, mapping.reason, message),
      },
    },
  }
}

/**
 * A field as a 1.0 request names it. The engine checks messages in the internal model, whose
 * file part is `{file: {bytes | uri, name, mimeType}}`; 1.0's is `{raw | url, filename,
 * mediaType}`. Every other field the engine names is spelled alike.
 */
const INTERNAL_FILE_FIELD = /(parts\[\d+\])\.file\.(bytes|uri|name|mimeType)$/
const V10_FILE_FIELD: Record<string, string> = {
  bytes: 'raw',
  uri: 'url',
  name: 'filename',
  mimeType: 'mediaType',
}

const v10Field = (field: string): string =>
  field.replace(
    INTERNAL_FILE_FIELD,
    (_all, part: string, name: string) => `${part}.${V10_FILE_FIELD[name]}`,
  )

/** The error's message, its field (the `field: …` it starts with) named as 1.0 names it. */
function v10Message(error: A2AError): string {
  const field = error.details.field
  if (typeof field !== 'string' || !error.message.startsWith(`${field}:`)) return error.message
  return v10Field(field) + error.message.slice(field.length)
}
