/**
 * What a "Method not found" adds, so that a caller finds the method it meant: a method of the
 * other protocol version (and the header that reaches it), or else a method of the request's
 * version whose name is close to the one sent (a case, a plural, a typo).
 */
import type { FastifyRequest } from 'fastify'
import type { ProtocolVersion } from '../../../protocol/a2a/versions.js'
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
  const near = nearest(method, Object.keys(methods[version]))
  return near === undefined ? undefined : `Did you mean ${near}?`
}

/** The name closest to `name` within MAX_EDITS (letter case ignored), if there is one. */
function nearest(name: string, names: readonly string[]): string | undefined {
  let best: { name: string; edits: number } | undefined
  for (const candidate of names) {
    const edits = editDistance(name.toLowerCase(), candidate.toLowerCase())
    if (edits <= MAX_EDITS && (best === undefined || edits < best.edits)) {
      best = { name: candidate, edits }
    }
  }
  return best?.name
}

/** Levenshtein distance: the fewest insertions, deletions and substitutions from a to b. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution))
    }
    previous = current
  }
  return previous[b.length]!
}
