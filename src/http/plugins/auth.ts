/**
 * JWT bearer authentication in front of every route but the public ones (agent cards, probes:
 * `config: { public: true }`). A verified token becomes `request.caller`; a caller without
 * `a2a:invoke` (or `a2a:admin`) is refused. Failures are thrown as AuthenticationError /
 * PermissionDeniedError, so each dialect's error table renders them; the `onError` hook adds
 * the `WWW-Authenticate` challenge, whichever layer threw.
 */
import fastifyJwt from '@fastify/jwt'
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import type { AuthSettings } from '../../auth/settings.js'
import type { Caller } from '../../domain/caller.js'
import { ADMIN_SCOPE, INVOKE_SCOPE, missingScopes } from '../../domain/caller.js'
import { AuthenticationError, PermissionDeniedError } from '../../domain/errors.js'
import { keyFor } from '../auth/key-source.js'
import { invalidToken, toAuthError } from '../auth/token-errors.js'

export interface AuthPluginOptions {
  settings: AuthSettings
  /** Dev mode's ephemeral secret (ignored in the other modes). */
  devSecret: string
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified caller; null on public routes. */
    caller: Caller | null
  }
  interface FastifyContextConfig {
    /** Served without credentials (agent cards, probes). */
    public?: boolean
  }
}

/** `scope`/`scp` as providers write it: a space-separated string or an array of strings. */
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
      requiredClaims: ['sub', 'exp'],
    },
    // fast-jwt's own wording for a bad claim, so the issuer/audience failure can be told apart.
    messages: { authorizationTokenInvalid: (error: Error) => error.message },
  })
  app.decorateRequest('caller', null)

  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.public === true) return
    let claims: Record<string, unknown>
    try {
      claims = await request.jwtVerify<Record<string, unknown>>()
    } catch (error) {
      throw toAuthError(error)
    }
    const caller = callerFrom(claims, settings.tenantClaim)
    request.caller = caller
    // Every later log line of this request names its caller (never the token).
    request.log = request.log.child({
      caller: caller.id,
      ...(caller.tenant !== undefined && { tenant: caller.tenant }),
    })
    const missing = missingScopes(caller.scopes, [INVOKE_SCOPE])
    if (missing.length > 0) {
      throw new PermissionDeniedError(missing, `use this agent (or ${ADMIN_SCOPE})`)
    }
  })

  app.addHook('onError', async (_request, reply, error) => {
    if (error instanceof AuthenticationError || error instanceof PermissionDeniedError) {
      reply.header('www-authenticate', error.challenge)
    }
  })
}

export default fp(auth, { name: 'a2a-auth', fastify: '5.x' })
