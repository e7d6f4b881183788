/** What a JSON-RPC method of either dialect gets, and what it answers. */
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AgentDeclaration } from '../../../domain/agent.js'
import type { JsonRpcId } from '../../../protocol/a2a/jsonrpc.js'
import type { A2AOperations } from '../../a2a/operations.js'

export interface RpcContext {
  id: JsonRpcId
  params: unknown
  request: FastifyRequest
  reply: FastifyReply
  ops: A2AOperations
  agent: AgentDeclaration
  /** The caller the tasks are scoped to (undefined: anonymous). */
  owner: string | undefined
}

/** A method answers with its `result`, or has streamed its answer as SSE. */
export type RpcAnswer = { result: unknown } | { streamed: true }

export type RpcMethod = (context: RpcContext) => Promise<RpcAnswer>

export const STREAMED: RpcAnswer = { streamed: true }
