/**
 * A JSON-RPC error in the shape of the version the request asked for (A2A-Version; missing
 * means 0.3). A version this server does not serve is answered in 1.0's shape, as its error
 * code is 1.0's.
 */
import type { FastifyRequest } from 'fastify'
import type { A2AError } from '../../../domain/errors.js'
import type { JsonRpcId } from '../../../protocol/a2a/jsonrpc.js'
import type { ProtocolVersion } from '../../../protocol/a2a/versions.js'
import { protocolVersionOf } from '../../../protocol/a2a/versions.js'
import { v03RpcErrorReply } from '../../../protocol/v03/errors.js'
import { v10RpcErrorReply } from '../../../protocol/v10/errors.js'
import { askedVersionOf } from '../../a2a/asked-version.js'

/** The version a request asked for; throws VersionNotSupportedError for one not served. */
export function versionOf(request: Pick<FastifyRequest, 'headers' | 'query'>): ProtocolVersion {
  return protocolVersionOf(askedVersionOf(request))
}

export function jsonRpcErrorReply(
  request: Pick<FastifyRequest, 'headers' | 'query'>,
  error: A2AError,
  id: JsonRpcId,
) {
  let version: ProtocolVersion = '1.0'
  try {
    version = versionOf(request)
  } catch {
    // Not a version served here: 1.0's shape.
  }
  return version === '0.3' ? v03RpcErrorReply(error, id) : v10RpcErrorReply(error, id)
}
