/** A stable hash of a request, so that a retry can be told from a different request. */
import { hash } from 'node:crypto'
import { canonicalJson } from '../domain/canonical-json.js'

export function fingerprint(value: unknown): string {
  return hash('sha256', canonicalJson(value), 'base64url')
}
