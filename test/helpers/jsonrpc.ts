/**
 * Calls the JSON-RPC endpoint: through `inject`, in A2A 1.0 (default) or 0.3 (no header), or over
 * real HTTP (for streams).
 */
import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { authHeaders } from './auth.js'

export const JSON_RPC = '/a2a/jsonrpc'

export async function rpc(
  app: FastifyInstance,
  method: string,
  params: unknown,
  { version = '1.0', id = 1 }: { version?: string | null; id?: number | string } = {},
) {
  const response = await app.inject({
    method: 'POST',
    url: JSON_RPC,
    headers: { 'content-type': 'application/json', ...(version && { 'a2a-version': version }) },
    payload: { jsonrpc: '2.0', id, method, params },
  })
  return { status: response.statusCode, headers: response.headers, body: response.json() }
}

/** Calls a 1.0 method over real HTTP at `base`, with the default test caller's token (for streams). */
export function rpcOverHttp(base: string, method: string, params: unknown): Promise<Response> {
  return fetch(`${base}${JSON_RPC}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...authHeaders() },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
}

/** A 1.0 user message with text parts. */
export const v10Message = (text: string, extra: Record<string, unknown> = {}) => ({
  messageId: randomUUID(),
  role: 'ROLE_USER',
  parts: [{ text }],
  ...extra,
})

/** A 0.3 user message with text parts. */
export const v03Message = (text: string, extra: Record<string, unknown> = {}) => ({
  kind: 'message',
  messageId: randomUUID(),
  role: 'user',
  parts: [{ kind: 'text', text }],
  ...extra,
})
