/** What differs between A2A 1.0 and 0.3 over JSON-RPC: method names, headers, and shapes. */
import type { RemoteTask, SendResult, StreamEvent } from '../model.js'
import type { SendRequest } from '../transport.js'

export interface RpcCodec {
  version: '1.0' | '0.3'
  methods: { send: string; stream: string; get: string; cancel: string; resubscribe: string }
  headers: Record<string, string>
  sendParams(request: SendRequest, blocking: boolean | undefined): unknown
  sendResult(result: unknown): SendResult
  task(result: unknown): RemoteTask
  streamResult(result: unknown): StreamEvent
}
