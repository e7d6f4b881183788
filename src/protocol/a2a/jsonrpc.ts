/**
 * The JSON-RPC 2.0 envelope both JSON-RPC dialects (A2A 0.3 and 1.0) share: what a request must
 * look like before its method is known, and the shape of replies.
 */
import { InvalidRpcRequestError } from '../../domain/errors.js'

export type JsonRpcId = string | number | null

export interface JsonRpcCall {
  id: JsonRpcId
  method: string
  params: unknown
}

/** A JSON object: not null, not an array. */
export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/** The id to answer with, whatever else is wrong with the request (null when there is none). */
export function idOf(body: unknown): JsonRpcId {
  if (!isJsonObject(body)) return null
  const { id } = body as { id?: unknown }
  return typeof id === 'string' || typeof id === 'number' ? id : null
}

/** Reads the envelope; a body that is not a JSON-RPC request is -32600 Invalid Request. */
export function readCall(body: unknown): JsonRpcCall {
  if (Array.isArray(body)) throw new InvalidRpcRequestError('Batch requests are not supported')
  if (body === undefined) {
    throw new InvalidRpcRequestError('Invalid JSON-RPC request: the body is empty')
  }
  if (!isJsonObject(body)) {
    throw new InvalidRpcRequestError('Invalid JSON-RPC request: the body is not an object')
  }
  const { jsonrpc, id, method, params } = body
  if (jsonrpc !== '2.0') invalid('jsonrpc must be "2.0"')
  if (id !== undefined && id !== null && typeof id !== 'string' && typeof id !== 'number') {
    invalid('id must be a string, number or null')
  }
  if (typeof method !== 'string' || method === '') invalid('method must be a non-empty string')
  return { id: id ?? null, method, params }
}

function invalid(problem: string): never {
  throw new InvalidRpcRequestError(`Invalid JSON-RPC request: ${problem}`)
}

export const rpcResult = (id: JsonRpcId, result: unknown) => ({
  jsonrpc: '2.0' as const,
  id,
  result,
})

export const rpcError = <D = never>(
  id: JsonRpcId,
  error: { code: number; message: string; data?: D },
) => ({ jsonrpc: '2.0' as const, id, error })
