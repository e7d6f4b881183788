/**
 * Signs a JWT (JWS compact form) with node:crypto: HS256 for `a2a token` and dev mode; RS256 and
 * ES256 for tests and tools that hold a private key. Verification is @fastify/jwt's job.
 */
import { createHmac, createPrivateKey, sign } from 'node:crypto'
import type { KeyObject } from 'node:crypto'

export type SigningAlgorithm = 'HS256' | 'RS256' | 'ES256'

export interface SignOptions {
  alg: SigningAlgorithm
  /** The HS256 secret, or the RS256/ES256 private key. */
  key: string | Buffer | KeyObject
  kid?: string
}

const base64url = (value: string | Buffer): string => Buffer.from(value).toString('base64url')

export function signJwt(claims: Record<string, unknown>, options: SignOptions): string {
  const header = { alg: options.alg, typ: 'JWT', ...(options.kid && { kid: options.kid }) }
  const input = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`
  const signature =
    options.alg === 'HS256'
      ? createHmac('sha256', options.key).update(input).digest()
      : sign('sha256', Buffer.from(input), {
          key:
            typeof options.key === 'object' && 'type' in options.key
              ? options.key
              : createPrivateKey(options.key),
          ...(options.alg === 'ES256' && { dsaEncoding: 'ieee-p1363' as const }),
        })
  return `${input}.${base64url(signature)}`
}

/** `30s`, `15m`, `1h`, `7d` or plain seconds → seconds; undefined when unreadable. */
export function durationSeconds(text: string): number | undefined {
  const match = /^(\d+)\s*([smhd]?)$/.exec(text.trim())
  if (!match) return undefined
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86_400 }[match[2] as '' | 's' | 'm' | 'h' | 'd']
  const seconds = Number(match[1]) * unit
  return seconds > 0 ? seconds : undefined
}

export interface CallerClaims {
  sub: string
  scopes: readonly string[]
  tenant?: string
  tenantClaim?: string
  ttlSeconds: number
  issuer?: string
  audience?: string
  /** For tests: the token's clock (seconds since the epoch). */
  now?: number
}

/** The claims of a caller's token: `scope` is space-separated, as in OAuth 2.0. */
export function callerClaims(options: CallerClaims): Record<string, unknown> {
  const iat = options.now ?? Math.floor(Date.now() / 1000)
  return {
    sub: options.sub,
    scope: options.scopes.join(' '),
    ...(options.tenant !== undefined && { [options.tenantClaim ?? 'tenant']: options.tenant }),
    ...(options.issuer !== undefined && { iss: options.issuer }),
    ...(options.audience !== undefined && { aud: options.audience }),
    iat,
    exp: iat + options.ttlSeconds,
  }
}
