/**
 * The A2A 0.3 and 1.0 dialects: the agent card at /.well-known/agent-card.json, the JSON-RPC
 * endpoint (both versions) and the 1.0 HTTP+JSON binding. Each is an encapsulated plugin with
 * its own error handler, so its errors leave in its own shape.
 */
import type { FastifyPluginAsync } from 'fastify'
import type { ProtocolVersion } from '../../protocol/a2a/versions.js'
import { ExtendedCards } from '../a2a/extended-card.js'
import { A2AOperations } from '../a2a/operations.js'
import agentCard from './agent-card.js'
import jsonRpc from './jsonrpc/index.js'
import rest from './rest/index.js'

/** Where the bindings live, relative to the server's root (and published on the cards). */
export const JSON_RPC_PATH = '/a2a/jsonrpc'
export const REST_PATH = '/a2a/rest'

export interface A2ARoutesOptions {
  /** The public base URL, without a trailing slash. */
  publicUrl: string
  bodyLimit: number
  cardMaxAgeSeconds: number
  sendWaitMs: number
  cardDefaultVersion: ProtocolVersion
}

const a2aDialects: FastifyPluginAsync<A2ARoutesOptions> = async (app, options) => {
  const ops = new A2AOperations(app.tasks, options.sendWaitMs)
  const endpoints = {
    jsonRpcUrl: `${options.publicUrl}${JSON_RPC_PATH}`,
    restUrl: `${options.publicUrl}${REST_PATH}`,
  }
  const cards = new ExtendedCards(app.agent, endpoints)
  await app.register(agentCard, {
    endpoints,
    cardMaxAgeSeconds: options.cardMaxAgeSeconds,
    defaultVersion: options.cardDefaultVersion,
  })
  await app.register(jsonRpc, { path: JSON_RPC_PATH, bodyLimit: options.bodyLimit, ops, cards })
  await app.register(rest, { prefix: REST_PATH, bodyLimit: options.bodyLimit, ops, cards })
}

export default a2aDialects
