/**
 * JWT bearer authentication in front of every route but the public ones (agent cards, probes:
 * `config: { public: true }`), in two `onRequest` steps with the rate limit between them (a
 * path no route serves is answered 404 or 405 whatever the token, see `needsNoToken`):
 *
 * 1. this plugin verifies the token: a verified token becomes `request.caller`, a bad or missing
 *    one `request.authFailure` (nothing is thrown yet, so the rate limit can count the attempt
 *    against the client's address);
 * 2. `authorize` (authorize.ts), registered after the rate limit, refuses the request: 401 for
 *    `authFailure`, 403 for a caller without `a2a:invoke` (or `a2a:admin`).
 *
 * Failures are AuthenticationError / PermissionDeniedError, so each dialect's error table
 * renders them; the `onError` hook here adds the `WWW-Authenticate` challenge and audits them,
 * whichever layer threw (a skill's scope is checked by the engine).
 */
import fastifyJwt from '@fastify/jwt'
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Logger } from 'pino'
import type { AuthSettings } from '../../auth/settings.js'
import type { Caller } from '../../domain/caller.js'
import { ADMIN_SCOPE, INVOKE_SCOPE, missingScopes } from '../../domain/caller.js'
import type { A2AError } from '../../domain/errors.js'
import { AuthenticationError, PermissionDeniedError } from '../../domain/errors.js'
import { keyFor } from '../auth/key-source.js'
import { challenge, invalidToken, missingCredentials, toAuthError } from '../auth/token-errors.js'
import { VerifiedTokens } from '../auth/verified-tokens.js'
import { auditAuthFailure, auditPermissionDenial } from './audit.js'

export interface AuthPluginOptions {
  settings: AuthSettings
  /** Dev mode's secret (ignored in the other modes). */
  devSecret: string
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified caller; null on public routes and when verification failed. */
    caller: Caller | null
    /** Why the credentials were refused; thrown by `authorize`. */
    authFailure: A2AError | null
  }
  interface FastifyContextConfig {
    /** Served without credentials (agent cards, probes). */
    public?: boolean
    /** Scopes a caller needs for this route beyond `a2a:invoke`. */
    scopes?: readonly string[]
  }
}

/** `scope`/`scp` as providers write it: a space-separated string or an array of strings. */
/**
 * The public routes, and a path no route serves: its 404 (or 405) says the URL is wrong, which
 * a 401 would hide behind a token problem (the routes themselves are no secret: the Agent Card
 * lists them). A token sent there is still verified: its caller's rate limit counts the request.
 */
const needsNoToken = (request: FastifyRequest): boolean =>
  request.routeOptions.config.public === true || request.is404

const scopesOf = (claim: unknown): string[] =>
  typeof claim === 'string'
    ? claim.split(' ').filter(Boolean)
    : Array.isArray(claim)
      ? claim.filter((scope): scope is string => typeof scope === 'string')
      : []

/** The token's claims as a caller: scopes from `scope` (OAuth) or else `scp`. */
function callerFrom(claims: Record<string, unknown>, tenantClaim: string): Caller {
  const { sub } = claims
  if (typeof sub !== 'string' || sub === '') throw invalidToken('The token has no subject (sub)')
  const tenant = claims[tenantClaim]
  if (tenant !== undefined && (typeof tenant !== 'string' || tenant === '')) {
    throw invalidToken(`The token's ${tenantClaim} claim must be a non-empty string`)
  }
  const scopes = scopesOf(claims.scope ?? claims.scp)
  return { id: sub, ...(tenant !== undefined && { tenant }), scopes }
}

const auth: FastifyPluginAsync<AuthPluginOptions> = async (app, { settings, devSecret }) => {
  if (settings.mode !== 'none') await registerVerification(app, settings, devSecret)
  app.decorateRequest('caller', null)
  app.decorateRequest('authFailure', null)
  // A token verified once is not verified again for a while: an entry lapses with the token's
  // own `exp` (or after 10 minutes), so an expired token is never let through.
  const verified = new VerifiedTokens(10_000, 600_000)

  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.public === true) return
    const header = request.headers.authorization
    if (settings.mode === 'none') {
      request.authFailure = noVerification()
      return
    }
    if (header === undefined) {
      // Said here rather than by the JWT plugin, whose error (and its stack) costs more.
      request.authFailure = missingCredentials()
      return
    }
    let caller = verified.get(header)
    if (caller === undefined) {
      try {
        const claims = await request.jwtVerify<Record<string, unknown>>()
        caller = callerFrom(claims, settings.tenantClaim)
        verified.set(header, caller, claims.exp)
      } catch (error) {
        request.authFailure = toAuthError(error, request.headers.authorization)
        return
      }
    }
    request.caller = caller
    // Every later log line of this request names its caller (never the token). The request's
    // logger is its own (Fastify makes one per request), so binding to it is safe and cheaper
    // than a child of a child.
    const log = request.log as Logger
    log.setBindings({
      caller: caller.id,
      ...(caller.tenant !== undefined && { tenant: caller.tenant }),
    })
  })

  app.addHook('onError', async (request, reply, error) => {
    if (error instanceof AuthenticationError) {
      reply.header('www-authenticate', error.challenge)
      // Its reason is fixed text that names the problem, never the token.
      auditAuthFailure(request, error.reason)
    } else if (error instanceof PermissionDeniedError) {
      reply.header('www-authenticate', error.challenge)
      auditPermissionDenial(request, { required: [...error.missing], ...error.refused })
    }
  })
}

/** Refuses what `auth` did not let through; registered after the rate limit (see above). */
export const authorize = fp(
  async (app) => {
    app.addHook('onRequest', async (request) => {
      if (needsNoToken(request)) return
      if (request.authFailure) throw request.authFailure
      const scopes = request.caller?.scopes ?? []
      const missing = missingScopes(scopes, [INVOKE_SCOPE])
      if (missing.length > 0) {
        throw new PermissionDeniedError(missing, `use this agent (or ${ADMIN_SCOPE})`)
      }
      // A route may need more (the registry's changes need a2a:admin).
      const needed = missingScopes(scopes, request.routeOptions.config.scopes ?? [])
      if (needed.length > 0) throw new PermissionDeniedError(needed, 'do this')
    })
  },
  { name: 'a2a-authorize', fastify: '5.x', dependencies: ['a2a-auth'] },
)

/** @fastify/jwt with the key and the checks the settings ask for. */
async function registerVerification(
  app: FastifyInstance,
  settings: Exclude<AuthSettings, { mode: 'none' }>,
  devSecret: string,
): Promise<void> {
  const secret = keyFor(settings, devSecret)
  await app.register(fastifyJwt, {
    secret:
      typeof secret === 'string' && settings.mode === 'public-key' ? { public: secret } : secret,
    decoratorName: 'jwtClaims',
    // The key resolver (JWKS) reads `kid` and `alg` from the header.
    decode: { complete: true },
    verify: {
      algorithms: settings.algorithms as never,
      ...(settings.issuers && { allowedIss: settings.issuers }),
      ...(settings.audiences && { allowedAud: settings.audiences }),
      clockTolerance: settings.clockSkewSeconds * 1000,
      // fast-jwt checks `iss` and `aud` only when a token has them: a token without them would
      // pass the issuer and audience this server is told to demand.
      requiredClaims: [
        'sub',
        'exp',
        ...(settings.issuers ? ['iss'] : []),
        ...(settings.audiences ? ['aud'] : []),
      ],
      // Verified tokens are remembered in front of this (VerifiedTokens, below).
      cache: false,
    },
    // fast-jwt's own wording for a bad claim, so the issuer/audience failure can be told apart.
    messages: { authorizationTokenInvalid: (error: Error) => error.message },
  })
}

/** What a worker without a key answers on a path that needs a token: it verifies none. */
const noVerification = (): AuthenticationError =>
  new AuthenticationError(
    'This process verifies no tokens: it is a worker (ROLE=worker) without AUTH_* settings, which serves only /healthz, /readyz and /metrics',
    challenge(),
  )

export default fp(auth, { name: 'a2a-auth', fastify: '5.x', dependencies: ['a2a-audit'] })
