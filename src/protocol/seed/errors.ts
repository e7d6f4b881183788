/** The brief's dialect: ONE table from error code to HTTP status; the body is `{error: {...}}`. */
import type { A2AError, A2AErrorCode } from '../../domain/errors.js'

const HTTP_STATUS: Record<A2AErrorCode, number> = {
  TASK_NOT_FOUND: 404,
  TASK_NOT_CANCELABLE: 400,
  INVALID_TASK_STATE: 409,
  TASK_ID_CONFLICT: 409,
  UNKNOWN_SKILL: 400,
  INVALID_REQUEST: 400,
  LIMIT_EXCEEDED: 400,
  ACTIVE_TASK_LIMIT: 429,
  STREAM_LIMIT: 429,
  MALFORMED_JSON: 400,
  UNSUPPORTED_CONTENT_TYPE: 415,
  PAYLOAD_TOO_LARGE: 413,
  HEADERS_TOO_LARGE: 431,
  MALFORMED_HTTP: 400,
  REQUEST_TIMEOUT: 408,
  ROUTE_NOT_FOUND: 404,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL_ERROR: 500,
  UNSUPPORTED_OPERATION: 400,
  PUSH_NOTIFICATION_NOT_SUPPORTED: 400,
  EXTENDED_CARD_NOT_CONFIGURED: 400,
  VERSION_NOT_SUPPORTED: 400,
  CONTENT_TYPE_NOT_SUPPORTED: 415,
  METHOD_NOT_FOUND: 404,
  INVALID_RPC_REQUEST: 400,
  RATE_LIMITED: 429,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  AGENT_NOT_FOUND: 404,
  AGENT_CARD_REJECTED: 422,
}

export function seedErrorReply(error: A2AError, requestId: string) {
  return {
    statusCode: HTTP_STATUS[error.code],
    body: { error: { code: error.code, message: error.message, ...error.details, requestId } },
  }
}
