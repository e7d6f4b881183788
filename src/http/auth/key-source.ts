/**
 * The key @fastify/jwt verifies with: the shared secret, the PEM public key, or a JWKS key
 * picked by the token's `kid` (get-jwks caches keys and fetches again for a kid it has not
 * seen, which is how rotation reaches us, at most once per JWKS_MISS_COOLDOWN_MS). A kid the
 * JWKS does not hold is a 401.
 */
import buildGetJwks from 'get-jwks'
import type { AuthSettings } from '../../auth/settings.js'
import { ServiceUnavailableError } from '../../domain/errors.js'
import { invalidToken } from './token-errors.js'

import type { FastifyRequest } from 'fastify'

/** What @fastify/jwt hands a key resolver: the decoded token (`decode: { complete: true }`). */
type DecodedToken = object
export type KeyResolver = (request: FastifyRequest, token: DecodedToken) => Promise<string>

const headerOf = (token: DecodedToken): { kid?: unknown; alg?: unknown } =>
  'header' in token && typeof token.header === 'object' && token.header !== null ? token.header : {}

/** How long a fetched JWKS key is trusted before it is fetched again. */
const JWKS_CACHE_TTL_MS = 10 * 60_000
/** The most keys kept. */
const JWKS_CACHE_MAX = 100
/**
 * A kid this process has not verified with yet makes it fetch the JWKS, before any signature
 * can be checked: without a bound, anyone could make it fetch once per request. Such fetches
 * start at most once per this many ms; a new kid meanwhile is refused like an unknown one.
 */
export const JWKS_MISS_COOLDOWN_MS = 1000

export function keyFor(
  settings: Exclude<AuthSettings, { mode: 'none' }>,
  devSecret: string,
): string | KeyResolver {
  switch (settings.mode) {
    case 'secret':
      return settings.secret
    case 'dev':
      return devSecret
    case 'public-key':
      return settings.publicKey
    case 'jwks':
      return jwksResolver(settings.jwksUrl, settings.algorithms)
  }
}

function jwksResolver(jwksUrl: string, algorithms: readonly string[]): KeyResolver {
  const url = new URL(jwksUrl)
  const jwks = buildGetJwks({
    max: JWKS_CACHE_MAX,
    ttl: JWKS_CACHE_TTL_MS,
    jwksPath: `${url.pathname}${url.search}`,
    fetchOptions: { redirect: 'error' },
  })
  const domain = `${url.origin}/`
  /** The kids a token has been verified with lately (their keys are in get-jwks' cache). */
  const known = new Map<string, number>()
  let lastMissFetch = -Infinity
  return async (_request, token) => {
    const { kid, alg } = headerOf(token)
    // Refused before any fetch: a token cannot make us fetch for an algorithm we never accept.
    if (typeof alg !== 'string' || !algorithms.includes(alg)) {
      throw invalidToken('The token algorithm is not accepted')
    }
    if (typeof kid !== 'string' || kid === '') throw invalidToken('The token names no key (kid)')
    const now = Date.now()
    const knownUntil = known.get(kid)
    if (knownUntil === undefined || knownUntil <= now) {
      if (now - lastMissFetch < JWKS_MISS_COOLDOWN_MS) {
        throw invalidToken('The token is signed with an unknown key')
      }
      lastMissFetch = now
    }
    try {
      const key = await jwks.getPublicKey({ domain, alg, kid })
      known.delete(kid)
      if (known.size >= JWKS_CACHE_MAX) known.delete(known.keys().next().value!)
      known.set(kid, now + JWKS_CACHE_TTL_MS)
      return key
    } catch (error) {
      const code = (error as { code?: string }).code
      if (code === 'JWK_NOT_FOUND') throw invalidToken('The token is signed with an unknown key')
      throw new ServiceUnavailableError('The token signing keys cannot be fetched', {
        cause: error,
      })
    }
  }
}
