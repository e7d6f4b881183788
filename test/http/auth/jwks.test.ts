/**
 * JWKS mode against a real local HTTP server: keys picked by `kid`, cached, a new kid fetched
 * again (rotation), an unknown kid refused with 401 on every protected route.
 */
import { generateKeyPairSync } from 'node:crypto'
import type { JsonWebKey } from 'node:crypto'
import { createServer } from 'node:http'
import type { Server } from 'node:http'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setTimeout as sleep } from 'node:timers/promises'
import { signJwt } from '../../../src/auth/jws.js'
import { JWKS_MISS_COOLDOWN_MS } from '../../../src/http/auth/key-source.js'
import { echoSkill } from '../../../src/skills/echo/index.js'
import { testApp } from '../../helpers/app.js'
import { keptLog } from '../../helpers/log.js'
import type { ProtectedRoute } from './routes.js'
import { expectAuthError, PROTECTED_ROUTES } from './routes.js'

const first = generateKeyPairSync('rsa', { modulusLength: 2048 })
const second = generateKeyPairSync('rsa', { modulusLength: 2048 })
const jwk = (key: typeof first, kid: string): JsonWebKey => ({
  ...key.publicKey.export({ format: 'jwk' }),
  kid,
  alg: 'RS256',
  use: 'sig',
})

const now = () => Math.floor(Date.now() / 1000)
const signed = (key: typeof first, kid: string) =>
  signJwt(
    { sub: 'alice', scope: 'a2a:invoke skill:*', iat: now(), exp: now() + 600 },
    { alg: 'RS256', key: key.privateKey, kid },
  )

describe('JWT auth with a JWKS URL', () => {
  let jwks: Server
  let keys: JsonWebKey[] = [jwk(first, 'k1')]
  let fetches = 0
  let app: FastifyInstance

  beforeAll(async () => {
    jwks = createServer((_request, response) => {
      fetches++
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ keys }))
    })
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve))
    const { port } = jwks.address() as { port: number }
    app = await testApp(
      { AUTH_JWKS_URL: `http://127.0.0.1:${port}/keys/jwks.json` },
      { skills: [echoSkill] },
    )
  })
  afterAll(async () => {
    await app.close()
    await new Promise((resolve) => jwks.close(resolve))
  })

  const call = (route: ProtectedRoute, token: string) =>
    app.inject({
      method: route.method,
      url: route.url,
      headers: { ...route.headers, authorization: `Bearer ${token}` },
      ...(route.payload !== undefined && { payload: route.payload as object }),
    })

  it.each(PROTECTED_ROUTES)('a token with a known kid: $name gets through', async (route) => {
    const response = await call(route, signed(first, 'k1'))
    expect([401, 403]).not.toContain(response.statusCode)
  })

  it('caches the key: many requests, one fetch', async () => {
    const before = fetches
    for (let i = 0; i < 5; i++) await call(PROTECTED_ROUTES[2]!, signed(first, 'k1'))
    expect(fetches - before).toBe(0)
  })

  it.each(PROTECTED_ROUTES)('an unknown kid: $name → 401 invalid_token', async (route) => {
    const response = await call(route, signed(second, 'unknown'))
    expect(response.statusCode).toBe(401)
    expect(response.headers['www-authenticate']).toContain('error="invalid_token"')
    expectAuthError(route.dialect, response.json(), 'UNAUTHENTICATED')
  })

  it('a kid signed by the wrong key is refused even when the kid is known', async () => {
    const response = await call(PROTECTED_ROUTES[2]!, signed(second, 'k1'))
    expect(response.statusCode).toBe(401)
  })

  it('fetches the JWKS at most once per cooldown for kids it does not know', async () => {
    await sleep(JWKS_MISS_COOLDOWN_MS)
    const before = fetches
    for (let i = 0; i < 8; i++) {
      const response = await call(PROTECTED_ROUTES[2]!, signed(second, `random-${i}`))
      expect(response.statusCode).toBe(401)
      expect(response.json().error.message).toBe('The token is signed with an unknown key')
    }
    expect(fetches - before).toBe(1)
    // A kid it knows is not held up meanwhile.
    expect((await call(PROTECTED_ROUTES[2]!, signed(first, 'k1'))).statusCode).toBe(404)
  })

  it('picks up a rotated key: a new kid is fetched again', async () => {
    keys = [jwk(first, 'k1'), jwk(second, 'k2')]
    await sleep(JWKS_MISS_COOLDOWN_MS)
    const response = await call(PROTECTED_ROUTES[2]!, signed(second, 'k2'))
    expect(response.statusCode).toBe(404)
  })

  it('refuses an HS256 token before fetching any key', async () => {
    const before = fetches
    const forged = signJwt(
      { sub: 'alice', scope: 'a2a:invoke', exp: now() + 60 },
      { alg: 'HS256', key: 'whatever-secret', kid: 'k9' },
    )
    const response = await call(PROTECTED_ROUTES[2]!, forged)
    expect(response.statusCode).toBe(401)
    expect(fetches).toBe(before)
  })
})

describe('a JWKS URL over plain http', () => {
  const warningsFor = async (url: string) => {
    const { lines, logger } = keptLog()
    const app = await testApp({ AUTH_JWKS_URL: url }, { logger })
    await app.close()
    return lines.filter((line) => line.msg.startsWith('AUTH_JWKS_URL')).map((line) => line.msg)
  }

  it('is said at start when it leaves the machine, as anyone on the way could swap the keys', async () => {
    expect(await warningsFor('http://idp.internal/jwks.json')).toEqual([
      'AUTH_JWKS_URL is plain http (http://idp.internal/jwks.json): whoever can change that traffic can sign tokens this server accepts; use https',
    ])
    expect(await warningsFor('https://idp.example/jwks.json')).toEqual([])
    expect(await warningsFor('http://127.0.0.1:8080/jwks.json')).toEqual([])
  })
})

describe('an identity provider key in production without AUTH_JWT_ISSUER and AUTH_JWT_AUDIENCE', () => {
  const warningsFor = async (settings: Record<string, string>) => {
    const { lines, logger } = keptLog()
    const app = await testApp(
      { NODE_ENV: 'production', AUTH_JWKS_URL: 'https://idp.example/jwks.json', ...settings },
      { logger },
    )
    await app.close()
    return lines.filter((line) => line.msg.includes('not set: any token')).map((line) => line.msg)
  }

  it('is said at start, naming what is unset', async () => {
    expect(await warningsFor({})).toEqual([
      'AUTH_JWT_ISSUER and AUTH_JWT_AUDIENCE not set: any token the key verifies is accepted, whoever it was issued by and for (also a token your identity provider issued for another app); set them',
    ])
    expect(await warningsFor({ AUTH_JWT_ISSUER: 'https://idp.example' })).toEqual([
      'AUTH_JWT_AUDIENCE not set: any token the key verifies is accepted, whoever it was issued by and for (also a token your identity provider issued for another app); set it',
    ])
    expect(
      await warningsFor({ AUTH_JWT_ISSUER: 'https://idp.example', AUTH_JWT_AUDIENCE: 'agent' }),
    ).toEqual([])
  })
})
