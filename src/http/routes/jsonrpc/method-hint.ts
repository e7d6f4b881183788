/**
 * What a "Method not found" adds, so that a caller finds the method it meant: a method of the
 * other protocol version (and the header that reaches it), or else a method of the request's
 * version whose name is close to the one sent (a case, a plural, a typo).
 */
import type { FastifyRequest } from 'fastify'
import type { ProtocolVersion } from '../../../protocol/a2a/versions.js'
import { nearestName } from '../../../domain/near-name.js'
import { askedVersionOf } from '../../a2a/asked-version.js'

/** A name this far (edits) from a method's, or less, is taken for a slip of that method. */
const MAX_EDITS = 2

export function methodHint(
  methods: Readonly<Record<ProtocolVersion, object>>,
  request: FastifyRequest,
  version: ProtocolVersion,
  method: string,
): string | undefined {
  const other = (Object.keys(methods) as ProtocolVersion[]).find(
    (candidate) => candidate !== version && Object.hasOwn(methods[candidate], method),
  )
  if (other !== undefined) {
    const read =
      askedVersionOf(request) === undefined
        ? `a request without it is read as ${version}`
        : `this request says ${version}`
    return `It is an A2A ${other} method: send the header A2A-Version: ${other} (${read})`
  }
  const near = nearestName(method, Object.keys(methods[version]), MAX_EDITS)
  return near === undefined ? undefined : `Did you mean ${near}?`
}
