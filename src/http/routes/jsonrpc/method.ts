/** What a JSON-RPC method of either dialect gets, and what it answers. */
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AgentDeclaration } from '../../../domain/agent.js'
import type { Caller } from '../../../domain/caller.js'
import type { JsonRpcId } from '../../../protocol/a2a/jsonrpc.js'
import type { ExtendedCards } from '../../a2a/extended-card.js'
import type { A2AOperations } from '../../a2a/operations.js'

export interface RpcContext {
  id: JsonRpcId
  params: unknown
  request: FastifyRequest
  reply: FastifyReply
  ops: A2AOperations
  agent: AgentDeclaration
  /** The verified caller (undefined only where authentication is off, e.g. engine tests). */
  caller: Caller | undefined
  cards: ExtendedCards
}

/** A method answers with its `result`, or has streamed its answer as SSE. */
export type RpcAnswer = { result: unknown } | { streamed: true }

export type RpcMethod = (context: RpcContext) => Promise<RpcAnswer>

export const STREAMED: RpcAnswer = { streamed: true }
