/** The AUTH_* settings: modes, defaults, and each bad combination named by its variable. */
import { generateKeyPairSync } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../src/config.js'

const pem = (type: 'rsa' | 'ec') =>
  (type === 'rsa'
    ? generateKeyPairSync('rsa', { modulusLength: 2048 })
    : generateKeyPairSync('ec', { namedCurve: 'P-256' })
  ).publicKey
    .export({ type: 'spki', format: 'pem' })
    .toString()

const problems = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env)
  } catch (error) {
    if (error instanceof ConfigError) return error.message.split('\n')
    throw error
  }
  return []
}

describe('AUTH_* settings', () => {
  it('runs in dev mode without settings outside production', () => {
    expect(loadConfig({}).AUTH).toMatchObject({ mode: 'dev', algorithms: ['HS256'] })
  })

  it('takes a shared secret with HS256 and a 30 s clock skew by default', () => {
    const { AUTH } = loadConfig({ AUTH_JWT_SECRET: 's'.repeat(32) })
    expect(AUTH).toMatchObject({ mode: 'secret', algorithms: ['HS256'], clockSkewSeconds: 30 })
  })

  it('picks RS256 for an RSA key and ES256 for an EC key, one-line PEMs included', () => {
    expect(loadConfig({ AUTH_JWT_PUBLIC_KEY: pem('rsa') }).AUTH.algorithms).toEqual(['RS256'])
    const oneLine = pem('ec').replaceAll('\n', '\\n')
    expect(loadConfig({ AUTH_JWT_PUBLIC_KEY: oneLine }).AUTH).toMatchObject({
      mode: 'public-key',
      algorithms: ['ES256'],
    })
  })

  it('reads issuers and audiences as lists', () => {
    const { AUTH } = loadConfig({
      AUTH_JWKS_URL: 'https://idp.example/.well-known/jwks.json',
      AUTH_JWT_ISSUER: 'https://idp.example/, https://other.example/',
      AUTH_JWT_AUDIENCE: 'a2a',
    })
    expect(AUTH).toMatchObject({
      mode: 'jwks',
      algorithms: ['RS256', 'ES256'],
      issuers: ['https://idp.example/', 'https://other.example/'],
      audiences: ['a2a'],
    })
  })

  it('lets a production worker start without a key: it verifies no tokens', () => {
    const { AUTH } = loadConfig({
      NODE_ENV: 'production',
      ROLE: 'worker',
      REDIS_URL: 'redis://127.0.0.1:6379',
    })
    expect(AUTH.mode).toBe('none')
  })

  it.each([
    [{ NODE_ENV: 'production' }, /- AUTH_JWT_SECRET: production needs token verification/],
    [{ AUTH_JWT_SECRET: 'short' }, /AUTH_JWT_SECRET: must be at least 32 characters/],
    [{ AUTH_JWT_PUBLIC_KEY: 'not a key' }, /AUTH_JWT_PUBLIC_KEY: must be an RSA or EC public key/],
    [
      { AUTH_JWT_SECRET: 's'.repeat(32), AUTH_JWT_PUBLIC_KEY: 'x' },
      /AUTH_JWT_PUBLIC_KEY: set only one of/,
    ],
    [
      { AUTH_JWT_SECRET: 's'.repeat(32), AUTH_JWT_ALGORITHMS: 'RS256' },
      /AUTH_JWT_ALGORITHMS: RS256 cannot be used with a shared secret/,
    ],
    [
      { AUTH_JWKS_URL: 'https://idp.example/jwks', AUTH_JWT_ALGORITHMS: 'HS256,none' },
      /AUTH_JWT_ALGORITHMS: HS256, none cannot be used with public keys/,
    ],
    [{ AUTH_CLOCK_SKEW_SECONDS: '3600' }, /AUTH_CLOCK_SKEW_SECONDS/],
  ])('refuses %o', (env, message) => {
    expect(problems(env as Record<string, string>).join('\n')).toMatch(message)
  })

  it('refuses a private key without showing it, and says how to get its public key', () => {
    const privateKeys = [
      generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey,
      generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey,
      generateKeyPairSync('ed25519').privateKey,
    ].map((key) => key.export({ type: 'pkcs8', format: 'pem' }).toString())
    privateKeys.push(privateKeys[0]!.slice(0, 600))
    for (const key of privateKeys) {
      const said = problems({ AUTH_JWT_PUBLIC_KEY: key })
      expect(said).toEqual([
        'Invalid configuration:',
        `  - AUTH_JWT_PUBLIC_KEY: is a private key; give its public key (openssl pkey -in key.pem -pubout), and keep the private key with the token issuer (got ${key.length} characters, not shown)`,
      ])
    }
    // Nor any other value that is no key.
    expect(problems({ AUTH_JWT_PUBLIC_KEY: 'not a key' }).join('\n')).not.toContain('not a key')
  })

  it('refuses algorithms that cannot verify with the key, and picks the curve of an EC key', () => {
    const ec = (namedCurve: string) =>
      generateKeyPairSync('ec', { namedCurve })
        .publicKey.export({ type: 'spki', format: 'pem' })
        .toString()
    expect(
      problems({ AUTH_JWT_PUBLIC_KEY: pem('rsa'), AUTH_JWT_ALGORITHMS: 'RS256,ES256' }),
    ).toEqual([
      'Invalid configuration:',
      '  - AUTH_JWT_ALGORITHMS: ES256 cannot verify with an RSA key; choose from RS256, RS384, RS512, PS256, PS384, PS512 (got "RS256,ES256")',
    ])
    expect(problems({ AUTH_JWT_PUBLIC_KEY: pem('ec'), AUTH_JWT_ALGORITHMS: 'ES384' })).toEqual([
      'Invalid configuration:',
      '  - AUTH_JWT_ALGORITHMS: ES384 cannot verify with an EC prime256v1 key; choose from ES256 (got "ES384")',
    ])
    expect(loadConfig({ AUTH_JWT_PUBLIC_KEY: ec('P-384') }).AUTH.algorithms).toEqual(['ES384'])
    expect(problems({ AUTH_JWT_PUBLIC_KEY: ec('secp256k1') }).join('\n')).toMatch(
      /AUTH_JWT_PUBLIC_KEY: must be an RSA key, or an EC key on P-256, P-384 or P-521/,
    )
  })
})
