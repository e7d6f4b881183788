/**
 * The auth matrix on every protected route of every dialect: a request without a usable token
 * is 401 in the dialect's error format with a `WWW-Authenticate: Bearer` challenge; a valid one
 * gets through (whatever the route then answers, it is not 401/403).
 */
import { generateKeyPairSync } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signJwt } from '../../../src/auth/jws.js'
import { echoSkill } from '../../../src/skills/echo/index.js'
import { testApp } from '../../helpers/app.js'
import { TEST_SECRET, token } from '../../helpers/auth.js'
import type { ProtectedRoute } from './routes.js'
import { expectAuthError, PROTECTED_ROUTES } from './routes.js'

const ISSUER = 'https://issuer.test'
const AUDIENCE = 'a2a-tests'
const SCOPES = ['a2a:invoke', 'skill:*']
const now = () => Math.floor(Date.now() / 1000)
const claims = (extra: Record<string, unknown> = {}) => ({
  sub: 'alice',
  scope: SCOPES.join(' '),
  iss: ISSUER,
  aud: AUDIENCE,
  iat: now(),
  exp: now() + 600,
  ...extra,
})
const hs256 = (extra: Record<string, unknown> = {}) =>
  signJwt(claims(extra), { alg: 'HS256', key: TEST_SECRET })
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 })
const rsaPublicPem = rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString()

interface Case {
  name: string
  authorization: string | undefined
  /** The `error` of the challenge; undefined: a bare `Bearer realm="a2a"` challenge. */
  error?: 'invalid_token' | 'invalid_request'
}

const CASES: Case[] = [
  { name: 'missing', authorization: undefined },
  // Another scheme carries no bearer token: the bare challenge, as for a missing header.
  { name: 'not a bearer header', authorization: 'Basic YWxpY2U6c2VjcmV0' },
  { name: 'malformed token', authorization: 'Bearer not-a.jwt', error: 'invalid_token' },
  {
    name: 'expired',
    authorization: `Bearer ${hs256({ exp: now() - 3600 })}`,
    error: 'invalid_token',
  },
  {
    name: 'not yet valid (nbf)',
    authorization: `Bearer ${hs256({ nbf: now() + 3600 })}`,
    error: 'invalid_token',
  },
  {
    name: 'wrong issuer',
    authorization: `Bearer ${hs256({ iss: 'https://evil.test' })}`,
    error: 'invalid_token',
  },
  {
    name: 'no issuer where one is required',
    authorization: `Bearer ${hs256({ iss: undefined })}`,
    error: 'invalid_token',
  },
  {
    name: 'no audience where one is required',
    authorization: `Bearer ${hs256({ aud: undefined })}`,
    error: 'invalid_token',
  },
  {
    name: 'wrong audience',
    authorization: `Bearer ${hs256({ aud: 'other' })}`,
    error: 'invalid_token',
  },
  {
    name: 'wrong secret',
    authorization: `Bearer ${signJwt(claims(), { alg: 'HS256', key: `${TEST_SECRET}-other` })}`,
    error: 'invalid_token',
  },
  {
    name: 'alg none',
    authorization: `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims())}.`,
    error: 'invalid_token',
  },
  {
    name: 'RS256 token where HS256 is configured',
    authorization: `Bearer ${signJwt(claims(), { alg: 'RS256', key: rsa.privateKey })}`,
    error: 'invalid_token',
  },
  {
    name: 'no subject',
    authorization: `Bearer ${hs256({ sub: undefined })}`,
    error: 'invalid_token',
  },
]

async function call(
  app: FastifyInstance,
  route: ProtectedRoute,
  authorization: string | undefined,
) {
  const response = await app.inject({
    method: route.method,
    url: route.url,
    headers: { ...route.headers, authorization },
    ...(route.payload !== undefined && { payload: route.payload as object }),
  })
  return { status: response.statusCode, headers: response.headers, body: response.json() }
}

describe('JWT auth (HS256 with issuer and audience) on every protected route', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await testApp(
      { AUTH_JWT_ISSUER: ISSUER, AUTH_JWT_AUDIENCE: AUDIENCE },
      { skills: [echoSkill] },
    )
  })
  afterAll(() => app.close())

  describe.each(CASES)('$name', ({ authorization, error }) => {
    it.each(PROTECTED_ROUTES)('$name → 401 with a Bearer challenge', async (route) => {
      const { status, headers, body } = await call(app, route, authorization)
      expect(status).toBe(401)
      const challenge = String(headers['www-authenticate'])
      expect(challenge).toMatch(/^Bearer realm="a2a"/)
      if (error) expect(challenge).toContain(`error="${error}"`)
      else expect(challenge).not.toContain('error=')
      expectAuthError(route.dialect, body, 'UNAUTHENTICATED')
    })
  })

  it.each(PROTECTED_ROUTES)('valid token: $name gets past authentication', async (route) => {
    const { status, headers } = await call(app, route, `Bearer ${hs256()}`)
    expect([401, 403]).not.toContain(status)
    expect(headers['www-authenticate']).toBeUndefined()
  })

  it('accepts a token that expired within the clock skew', async () => {
    const { status } = await call(app, PROTECTED_ROUTES[2]!, `Bearer ${hs256({ exp: now() - 5 })}`)
    expect(status).toBe(404)
  })

  it('says why a token is refused without echoing it', async () => {
    const expired = hs256({ exp: now() - 3600 })
    const { body } = await call(app, PROTECTED_ROUTES[2]!, `Bearer ${expired}`)
    expect(body.error.message).toBe('The token has expired')
    expect(JSON.stringify(body)).not.toContain(expired)
    // A missing claim is named, whatever else the token lacks or has wrong.
    for (const [missing, description] of [
      [{ sub: undefined }, 'The token has no subject (sub)'],
      [{ sub: '' }, 'The token has no subject (sub)'],
      [{ exp: undefined }, 'The token has no expiry (exp)'],
      [{ iss: undefined }, 'The token has no issuer (iss); this agent accepts only its issuers'],
      [{ aud: undefined }, 'The token has no audience (aud); this agent accepts only its own'],
    ] as const) {
      const { body: refused } = await call(app, PROTECTED_ROUTES[2]!, `Bearer ${hs256(missing)}`)
      expect(refused.error.message).toBe(description)
    }
  })

  it('says what is wrong with a token that fails its checks', async () => {
    const refusals: [string, string][] = [
      ['not-a.jwt', 'The token is malformed'],
      [hs256({ nbf: now() + 3600 }), 'The token is not valid yet (nbf)'],
      [hs256({ iss: 'https://evil.test' }), 'The token issuer is not accepted'],
      [hs256({ aud: 'other' }), 'The token audience is not accepted'],
      [
        signJwt(claims(), { alg: 'HS256', key: `${TEST_SECRET}-other` }),
        'The token signature is invalid: it was not signed with the key this agent verifies with',
      ],
      [`${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims())}.`, 'The token is unsigned'],
      [
        signJwt(claims(), { alg: 'RS256', key: rsa.privateKey }),
        'The token algorithm is not accepted',
      ],
    ]
    const said = []
    for (const [token] of refusals) {
      const { body } = await call(app, PROTECTED_ROUTES[2]!, `Bearer ${token}`)
      said.push(body.error.message)
    }
    expect(said).toEqual(refusals.map(([, description]) => description))
  })

  it('says a header without a Bearer token is one, naming its scheme but none of the rest', async () => {
    const token = hs256({})
    // Another scheme is no Bearer credential: the bare challenge (RFC 6750 §3.1).
    const cases: [string, string, string][] = [
      [`Token ${token}`, 'The Authorization header must be "Bearer <token>" (it uses "Token")', ''],
      [
        'Basic dXNlcjpwYXNz',
        'The Authorization header must be "Bearer <token>" (it uses "Basic")',
        '',
      ],
      [token, 'The Authorization header must be "Bearer <token>" (it has no scheme)', ''],
      ['Bearer', 'The Authorization header must be "Bearer <token>"', ''],
    ]
    for (const [authorization, description, error] of cases) {
      const { status, headers, body } = await call(app, PROTECTED_ROUTES[2]!, authorization)
      expect(status).toBe(401)
      expect(body.error.message).toBe(description)
      const challenge = String(headers['www-authenticate'])
      if (error) expect(challenge).toContain(`error="${error}"`)
      else expect(challenge).toBe('Bearer realm="a2a"')
      expect(JSON.stringify(body)).not.toContain(token)
      expect(JSON.stringify(body)).not.toContain('dXNlcjpwYXNz')
    }
    // The metric's reason is the fixed text: a scheme a request makes up adds no series.
    const metrics = (await app.inject('/metrics')).body
    expect(metrics).not.toMatch(/a2a_auth_failures_total\{reason="[^"]*it uses/)
    expect(metrics).toMatch(
      /a2a_auth_failures_total\{reason="The Authorization header must be \\"Bearer <token>\\""\} \d+/,
    )
  })

  it.each([
    ['/.well-known/agent.json'],
    ['/.well-known/agent-card.json'],
    ['/healthz'],
    ['/readyz'],
  ])('serves %s without credentials', async (url) => {
    const response = await app.inject({ method: 'GET', url, headers: { authorization: undefined } })
    expect(response.statusCode).toBe(200)
  })

  it('refuses a valid token without a2a:invoke with 403 insufficient_scope', async () => {
    for (const route of PROTECTED_ROUTES) {
      const { status, headers, body } = await call(
        app,
        route,
        `Bearer ${hs256({ scope: 'skill:echo' })}`,
      )
      expect(status, route.name).toBe(403)
      expect(headers['www-authenticate']).toBe(
        'Bearer error="insufficient_scope", scope="a2a:invoke"',
      )
      expectAuthError(route.dialect, body, 'PERMISSION_DENIED')
    }
  })
})

describe('JWT auth with an RS256 public key', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await testApp({ AUTH_JWT_PUBLIC_KEY: rsaPublicPem }, { skills: [echoSkill] })
  })
  afterAll(() => app.close())

  it.each(PROTECTED_ROUTES)(
    'HS256 signed with the public key (confusion): $name → 401',
    async (route) => {
      const forged = signJwt(claims(), { alg: 'HS256', key: rsaPublicPem })
      const { status, body } = await call(app, route, `Bearer ${forged}`)
      expect(status).toBe(401)
      expectAuthError(route.dialect, body, 'UNAUTHENTICATED')
    },
  )

  it.each(PROTECTED_ROUTES)(
    'a token signed with the private key: $name gets through',
    async (route) => {
      const signed = signJwt(claims(), { alg: 'RS256', key: rsa.privateKey })
      const { status } = await call(app, route, `Bearer ${signed}`)
      expect([401, 403]).not.toContain(status)
    },
  )

  it('the cards declare the bearer scheme and its scopes', async () => {
    const v10 = (
      await app.inject({ url: '/.well-known/agent-card.json', headers: { 'a2a-version': '1.0' } })
    ).json()
    expect(v10.securitySchemes).toEqual({
      bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT' } },
    })
    expect(v10.securityRequirements).toEqual([{ schemes: { bearer: { list: ['a2a:invoke'] } } }])
    expect(v10.skills[0].securityRequirements).toEqual([
      { schemes: { bearer: { list: ['a2a:invoke', 'skill:echo'] } } },
    ])
    const v03 = (await app.inject({ url: '/.well-known/agent-card.json' })).json()
    expect(v03.securitySchemes).toEqual({
      bearer: { type: 'http', scheme: 'Bearer', bearerFormat: 'JWT' },
    })
    expect(v03.security).toEqual([{ bearer: ['a2a:invoke'] }])
    expect(v03.skills[0].security).toEqual([{ bearer: ['a2a:invoke', 'skill:echo'] }])
  })
})

describe('JWT auth with ES256', () => {
  it('verifies an ES256 token with an EC public key and refuses the wrong key', async () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    const app = await testApp(
      { AUTH_JWT_PUBLIC_KEY: ec.publicKey.export({ type: 'spki', format: 'pem' }).toString() },
      { skills: [echoSkill] },
    )
    try {
      const route = PROTECTED_ROUTES[2]!
      const good = signJwt(claims(), { alg: 'ES256', key: ec.privateKey })
      expect((await call(app, route, `Bearer ${good}`)).status).toBe(404)
      const bad = signJwt(claims(), { alg: 'ES256', key: other.privateKey })
      expect((await call(app, route, `Bearer ${bad}`)).status).toBe(401)
    } finally {
      await app.close()
    }
  })
})

// Keep the default-caller helper honest: it mints for the same test secret.
it('the default test caller is accepted by a test app', async () => {
  const app = await testApp({}, { skills: [echoSkill] })
  const response = await app.inject({
    url: '/a2a/rest/tasks',
    headers: { authorization: `Bearer ${token()}` },
  })
  expect(response.statusCode).toBe(200)
  await app.close()
})
