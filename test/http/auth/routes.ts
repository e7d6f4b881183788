/** Every protected route of every dialect, and how each dialect shows an auth error. */
import { randomUUID } from 'node:crypto'
import { expect } from 'vitest'

export type Dialect = 'seed' | 'jsonrpc-1.0' | 'jsonrpc-0.3' | 'rest'

export interface ProtectedRoute {
  name: string
  dialect: Dialect
  method: 'GET' | 'POST' | 'DELETE'
  url: string
  headers?: Record<string, string>
  payload?: unknown
}

const id = randomUUID()
const rpc = (version: '1.0' | '0.3', method: string): ProtectedRoute => ({
  name: `JSON-RPC ${version} ${method}`,
  dialect: version === '1.0' ? 'jsonrpc-1.0' : 'jsonrpc-0.3',
  method: 'POST',
  url: '/a2a/jsonrpc',
  headers: {
    'content-type': 'application/json',
    ...(version === '1.0' && { 'a2a-version': '1.0' }),
  },
  payload: { jsonrpc: '2.0', id: 7, method, params: { id } },
})
const rest = (method: ProtectedRoute['method'], path: string): ProtectedRoute => ({
  name: `REST ${method} ${path}`,
  dialect: 'rest',
  method,
  url: `/a2a/rest${path}`,
  ...(method === 'POST' && { headers: { 'content-type': 'application/json' }, payload: {} }),
})
const seed = (method: ProtectedRoute['method'], path: string): ProtectedRoute => ({
  name: `seed ${method} ${path}`,
  dialect: 'seed',
  method,
  url: path,
  ...(method === 'POST' && { headers: { 'content-type': 'application/json' }, payload: {} }),
})

export const PROTECTED_ROUTES: ProtectedRoute[] = [
  seed('POST', '/tasks/send'),
  seed('POST', '/tasks/sendSubscribe'),
  seed('GET', `/tasks/${id}`),
  seed('POST', `/tasks/${id}/cancel`),
  seed('POST', `/tasks/${id}/send`),
  ...['SendMessage', 'SendStreamingMessage', 'GetTask', 'ListTasks', 'CancelTask'].map((m) =>
    rpc('1.0', m),
  ),
  ...['SubscribeToTask', 'GetExtendedAgentCard', 'CreateTaskPushNotificationConfig'].map((m) =>
    rpc('1.0', m),
  ),
  ...['message/send', 'message/stream', 'tasks/get', 'tasks/cancel', 'tasks/resubscribe'].map((m) =>
    rpc('0.3', m),
  ),
  rpc('0.3', 'agent/getAuthenticatedExtendedCard'),
  rest('POST', '/message:send'),
  rest('POST', '/message:stream'),
  rest('GET', '/tasks'),
  rest('GET', `/tasks/${id}`),
  rest('POST', `/tasks/${id}:cancel`),
  rest('GET', `/tasks/${id}:subscribe`),
  rest('POST', `/tasks/${id}:subscribe`),
  rest('POST', `/tasks/${id}/pushNotificationConfigs`),
  rest('GET', `/tasks/${id}/pushNotificationConfigs`),
  rest('GET', `/tasks/${id}/pushNotificationConfigs/c1`),
  rest('DELETE', `/tasks/${id}/pushNotificationConfigs/c1`),
  rest('GET', '/extendedAgentCard'),
  rest('GET', '/tenant-a/tasks'),
]

/** The body is the dialect's own error shape with the auth code. */
export function expectAuthError(
  dialect: Dialect,
  body: any,
  code: 'UNAUTHENTICATED' | 'PERMISSION_DENIED',
): void {
  const rpcCode = code === 'UNAUTHENTICATED' ? -32030 : -32031
  switch (dialect) {
    case 'seed':
      expect(body.error).toMatchObject({ code, message: expect.any(String) })
      break
    case 'jsonrpc-1.0':
      expect(body).toMatchObject({ jsonrpc: '2.0', error: { code: rpcCode } })
      expect(body.error.data[0]).toMatchObject({ reason: code, domain: 'a2a-protocol.org' })
      break
    case 'jsonrpc-0.3':
      expect(body).toMatchObject({ jsonrpc: '2.0', error: { code: rpcCode } })
      break
    case 'rest':
      expect(body.error).toMatchObject({
        code: code === 'UNAUTHENTICATED' ? 401 : 403,
        status: code,
      })
      break
  }
  expect(JSON.stringify(body)).not.toMatch(/at .*\.(ts|js):\d+/)
}
