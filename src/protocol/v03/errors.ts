/**
 * A2A 0.3 JSON-RPC errors: ONE table from error code to JSON-RPC code; `data` is a plain object
 * with the error's details (0.3 had no ErrorInfo).
 */
import type { A2AError, A2AErrorCode } from '../../domain/errors.js'
import type { JsonRpcId } from '../a2a/jsonrpc.js'
import { rpcError } from '../a2a/jsonrpc.js'

const RPC_CODE: Record<A2AErrorCode, number> = {
  TASK_NOT_FOUND: -32001,
  TASK_NOT_CANCELABLE: -32002,
  PUSH_NOTIFICATION_NOT_SUPPORTED: -32003,
  UNSUPPORTED_OPERATION: -32004,
  INVALID_TASK_STATE: -32004,
  CONTENT_TYPE_NOT_SUPPORTED: -32005,
  UNSUPPORTED_CONTENT_TYPE: -32005,
  EXTENDED_CARD_NOT_CONFIGURED: -32007,
  // 0.3 has no version error of its own; a client that sent a version gets 1.0's code.
  VERSION_NOT_SUPPORTED: -32009,
  TASK_ID_CONFLICT: -32602,
  UNKNOWN_SKILL: -32602,
  INVALID_REQUEST: -32602,
  LIMIT_EXCEEDED: -32602,
  ACTIVE_TASK_LIMIT: -32029,
  STREAM_LIMIT: -32028,
  MALFORMED_JSON: -32700,
  INVALID_RPC_REQUEST: -32600,
  PAYLOAD_TOO_LARGE: -32600,
  HEADERS_TOO_LARGE: -32600,
  MALFORMED_HTTP: -32600,
  REQUEST_TIMEOUT: -32600,
  METHOD_NOT_FOUND: -32601,
  ROUTE_NOT_FOUND: -32601,
  METHOD_NOT_ALLOWED: -32600,
  SERVICE_UNAVAILABLE: -32603,
  INTERNAL_ERROR: -32603,
  // 0.3 defines no rate-limit error; -32010 is the 0.1 draft's RateLimitExceeded, unused since.
  RATE_LIMITED: -32010,
  // A2A leaves auth codes to the server (-32007/-32008 were reused); see docs/security.md.
  UNAUTHENTICATED: -32030,
  PERMISSION_DENIED: -32031,
  // The agent registry's errors (its HTTP API speaks the seed dialect; the table is total).
  AGENT_NOT_FOUND: -32602,
  AGENT_CARD_REJECTED: -32602,
}

const HTTP_STATUS: Partial<Record<A2AErrorCode, number>> = {
  PAYLOAD_TOO_LARGE: 413,
  HEADERS_TOO_LARGE: 431,
  METHOD_NOT_ALLOWED: 405,
  MALFORMED_HTTP: 400,
  REQUEST_TIMEOUT: 408,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL_ERROR: 500,
  RATE_LIMITED: 429,
  // As the rate limit: HTTP 429, so that proxies and HTTP clients honour Retry-After.
  ACTIVE_TASK_LIMIT: 429,
  STREAM_LIMIT: 429,
}

export function v03RpcErrorReply(error: A2AError, id: JsonRpcId) {
  const hasDetails = Object.keys(error.details).length > 0
  return {
    statusCode: HTTP_STATUS[error.code] ?? 200,
    body: rpcError(id, {
      code: RPC_CODE[error.code],
      message: error.message,
      ...(hasDetails && { data: error.details }),
    }),
  }
}
