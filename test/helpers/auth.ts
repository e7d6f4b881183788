/**
 * Credentials for tests: the known test secret every test app verifies with, and tokens minted
 * for it. `TEST_CALLER` is what `testApp`'s `inject` sends unless a test sends its own header.
 */
import { callerClaims, signJwt } from '../../src/auth/jws.js'
import type { SigningAlgorithm } from '../../src/auth/jws.js'
import type { KeyObject } from 'node:crypto'

export const TEST_SECRET = 'test-secret-0123456789-abcdefghijklmnopqrstuvwxyz'

export interface TestCaller {
  sub?: string
  scopes?: readonly string[]
  tenant?: string
  ttlSeconds?: number
  issuer?: string
  audience?: string
}

/** Uses the agent and every skill, and sees only its own tasks. */
export const TEST_CALLER = { sub: 'test-user', scopes: ['a2a:invoke', 'skill:*'] } as const

/** A token for `caller`, signed with TEST_SECRET unless `key`/`alg` say otherwise. */
export function token(
  caller: TestCaller = {},
  signing: { alg?: SigningAlgorithm; key?: string | KeyObject; kid?: string } = {},
): string {
  const claims = callerClaims({
    sub: caller.sub ?? TEST_CALLER.sub,
    scopes: caller.scopes ?? TEST_CALLER.scopes,
    ttlSeconds: caller.ttlSeconds ?? 600,
    ...(caller.tenant !== undefined && { tenant: caller.tenant }),
    ...(caller.issuer !== undefined && { issuer: caller.issuer }),
    ...(caller.audience !== undefined && { audience: caller.audience }),
  })
  return signJwt(claims, {
    alg: signing.alg ?? 'HS256',
    key: signing.key ?? TEST_SECRET,
    ...(signing.kid !== undefined && { kid: signing.kid }),
  })
}

/** `Bearer <token>` for `caller`. */
export const bearer = (caller: TestCaller = {}): string => `Bearer ${token(caller)}`

/** Headers with the default test caller's credentials, for requests over real HTTP. */
export const authHeaders = (caller: TestCaller = {}): { authorization: string } => ({
  authorization: bearer(caller),
})
