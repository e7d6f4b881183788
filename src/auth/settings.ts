/**
 * How tokens are verified, from the AUTH_* settings: one of three key sources, or dev mode
 * (no settings outside production: an HS256 secret kept in AUTH_DEV_SECRET_FILE).
 */
import { KeyObject, createPublicKey } from 'node:crypto'
import type { z } from 'zod'

export const HMAC_ALGORITHMS = ['HS256', 'HS384', 'HS512'] as const

/** The shortest HS256 secret the server verifies with, and `a2a token` signs with. */
export const MIN_SECRET_LENGTH = 32
export const ASYMMETRIC_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
] as const

interface AuthEnv {
  NODE_ENV: string
  ROLE: string
  AUTH_JWT_SECRET?: string | undefined
  AUTH_JWT_PUBLIC_KEY?: string | undefined
  AUTH_JWKS_URL?: string | undefined
  AUTH_JWT_ALGORITHMS?: string[] | undefined
  AUTH_JWT_ISSUER?: string[] | undefined
  AUTH_JWT_AUDIENCE?: string[] | undefined
  AUTH_CLOCK_SKEW_SECONDS: number
  AUTH_TENANT_CLAIM: string
  AUTH_DEV_SECRET_FILE: string
}

export type AuthKeySource =
  | { mode: 'secret'; secret: string }
  | { mode: 'public-key'; publicKey: string }
  | { mode: 'jwks'; jwksUrl: string }
  /** No settings, not production: the server makes a secret at start (see src/auth/dev-secret.ts). */
  | { mode: 'dev'; secretFile: string }
  /**
   * No settings, a production worker: it serves only the probes and the metrics, which are
   * public, so it needs no key and verifies no token (every other path is refused 401).
   */
  | { mode: 'none' }

export type AuthSettings = AuthKeySource & {
  algorithms: string[]
  issuers?: string[]
  audiences?: string[]
  clockSkewSeconds: number
  tenantClaim: string
}

const SOURCES = ['AUTH_JWT_SECRET', 'AUTH_JWT_PUBLIC_KEY', 'AUTH_JWKS_URL'] as const

/** Env files often hold a PEM on one line with `\n` escapes. */
const pemOf = (value: string): string => value.replace(/\\n/g, '\n')

/** The algorithms that verify with `key`: RSA signs RS* and PS*, an EC key the ES* of its curve. */
const EC_ALGORITHMS: Record<string, string> = {
  prime256v1: 'ES256',
  secp384r1: 'ES384',
  secp521r1: 'ES512',
}

function algorithmsFor(key: KeyObject): string[] {
  if (key.asymmetricKeyType === 'rsa')
    return ASYMMETRIC_ALGORITHMS.filter((alg) => !alg.startsWith('ES'))
  const curve = key.asymmetricKeyDetails?.namedCurve
  const alg =
    key.asymmetricKeyType === 'ec' && curve !== undefined ? EC_ALGORITHMS[curve] : undefined
  return alg === undefined ? [] : [alg]
}

/** What kind of key `key` is, as a message names it. */
const keyKind = (key: KeyObject): string =>
  key.asymmetricKeyType === 'ec'
    ? `an EC ${key.asymmetricKeyDetails?.namedCurve ?? ''} key`
    : `an ${String(key.asymmetricKeyType).toUpperCase()} key`

/**
 * The public key in `value`, or what is wrong with it. A private key is refused by name: Node
 * would derive its public key, and the signing key would then sit in the server's settings.
 */
function publicKeyOf(value: string): KeyObject | { problem: string } {
  const text = pemOf(value)
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text)) {
    return {
      problem:
        'is a private key; give its public key (openssl pkey -in key.pem -pubout), and keep the private key with the token issuer',
    }
  }
  let key: KeyObject
  try {
    key = createPublicKey(text)
  } catch {
    return { problem: 'must be an RSA or EC public key in PEM' }
  }
  if (algorithmsFor(key).length === 0) {
    return { problem: 'must be an RSA key, or an EC key on P-256, P-384 or P-521' }
  }
  return key
}

function defaultAlgorithms(env: AuthEnv): string[] {
  if (env.AUTH_JWT_PUBLIC_KEY !== undefined) {
    const key = publicKeyOf(env.AUTH_JWT_PUBLIC_KEY)
    return key instanceof KeyObject ? algorithmsFor(key).slice(0, 1) : ['RS256']
  }
  if (env.AUTH_JWKS_URL !== undefined) return ['RS256', 'ES256']
  return ['HS256']
}

/** The combinations that cannot work, each reported against the variable to change. */
export function checkAuth(env: AuthEnv, context: z.RefinementCtx): void {
  const issue = (path: string, message: string) =>
    context.addIssue({ code: 'custom', path: [path], message })
  const set = SOURCES.filter((name) => env[name] !== undefined)
  if (set.length > 1) {
    issue(set[1]!, `set only one of ${SOURCES.join(', ')} (also set: ${set[0]!})`)
    return
  }
  if (set.length === 0 && env.NODE_ENV === 'production' && env.ROLE !== 'worker') {
    issue(
      'AUTH_JWT_SECRET',
      `production needs token verification: set one of ${SOURCES.join(', ')} (dev mode, with its dev secret, runs only when NODE_ENV is not production; a worker, ROLE=worker, needs none)`,
    )
    return
  }
  const key =
    env.AUTH_JWT_PUBLIC_KEY === undefined ? undefined : publicKeyOf(env.AUTH_JWT_PUBLIC_KEY)
  if (key !== undefined && !(key instanceof KeyObject)) {
    issue('AUTH_JWT_PUBLIC_KEY', key.problem)
    return
  }
  if (env.AUTH_JWT_ALGORITHMS === undefined) return
  if (key !== undefined) {
    const fitting = algorithmsFor(key)
    const unfit = env.AUTH_JWT_ALGORITHMS.filter((alg) => !fitting.includes(alg))
    if (unfit.length > 0 || env.AUTH_JWT_ALGORITHMS.length === 0) {
      issue(
        'AUTH_JWT_ALGORITHMS',
        `${unfit.join(', ') || '(empty)'} cannot verify with ${keyKind(key)}; choose from ${fitting.join(', ')}`,
      )
    }
    return
  }
  const symmetric = set.length === 0 || set[0] === 'AUTH_JWT_SECRET'
  const allowed: readonly string[] = symmetric ? HMAC_ALGORITHMS : ASYMMETRIC_ALGORITHMS
  const bad = env.AUTH_JWT_ALGORITHMS.filter((alg) => !allowed.includes(alg))
  if (bad.length > 0 || env.AUTH_JWT_ALGORITHMS.length === 0) {
    issue(
      'AUTH_JWT_ALGORITHMS',
      `${bad.join(', ') || '(empty)'} cannot be used with ${symmetric ? 'a shared secret' : 'public keys'}; choose from ${allowed.join(', ')}`,
    )
  }
}

export function authSettings(env: AuthEnv): AuthSettings {
  const common = {
    algorithms: env.AUTH_JWT_ALGORITHMS ?? defaultAlgorithms(env),
    ...(env.AUTH_JWT_ISSUER && { issuers: env.AUTH_JWT_ISSUER }),
    ...(env.AUTH_JWT_AUDIENCE && { audiences: env.AUTH_JWT_AUDIENCE }),
    clockSkewSeconds: env.AUTH_CLOCK_SKEW_SECONDS,
    tenantClaim: env.AUTH_TENANT_CLAIM,
  }
  if (env.AUTH_JWT_SECRET !== undefined)
    return { mode: 'secret', secret: env.AUTH_JWT_SECRET, ...common }
  if (env.AUTH_JWT_PUBLIC_KEY !== undefined) {
    return { mode: 'public-key', publicKey: pemOf(env.AUTH_JWT_PUBLIC_KEY), ...common }
  }
  if (env.AUTH_JWKS_URL !== undefined)
    return { mode: 'jwks', jwksUrl: env.AUTH_JWKS_URL, ...common }
  // checkAuth lets a production process without a key start only as a worker.
  if (env.NODE_ENV === 'production') return { mode: 'none', ...common }
  return { mode: 'dev', secretFile: env.AUTH_DEV_SECRET_FILE, ...common }
}
