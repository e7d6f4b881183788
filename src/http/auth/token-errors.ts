/**
 * What a failed verification tells the caller: @fastify/jwt and fast-jwt errors become an
 * AuthenticationError with an RFC 6750 challenge. Messages are fixed text: nothing of the token
 * (or of the keys) is echoed back.
 */
import { A2AError, AuthenticationError, ServiceUnavailableError } from '../../domain/errors.js'

export const REALM = 'a2a'

export const challenge = (error?: string, description?: string): string =>
  [
    `Bearer realm="${REALM}"`,
    ...(error ? [`error="${error}"`] : []),
    ...(description ? [`error_description="${description.replace(/["\\]/g, "'")}"`] : []),
  ].join(', ')

export const invalidToken = (description: string): AuthenticationError =>
  new AuthenticationError(description, challenge('invalid_token', description))

/** The commonest slip: a token minted with another secret (or key) than the server's. */
const BAD_SIGNATURE =
  'The token signature is invalid: it was not signed with the key this agent verifies with'

const TOKEN_PROBLEMS: Record<string, string> = {
  FST_JWT_AUTHORIZATION_TOKEN_EXPIRED: 'The token has expired',
  FAST_JWT_EXPIRED: 'The token has expired',
  FAST_JWT_INACTIVE: 'The token is not valid yet (nbf)',
  FAST_JWT_MISSING_SIGNATURE: 'The token is unsigned',
  FAST_JWT_MALFORMED: 'The token is malformed',
  FAST_JWT_INVALID_PAYLOAD: 'The token is malformed',
  FAST_JWT_INVALID_TYPE: 'The token is malformed',
  FAST_JWT_INVALID_ALGORITHM: 'The token algorithm is not accepted',
  FAST_JWT_INVALID_KEY: 'The token algorithm is not accepted',
  FAST_JWT_INVALID_SIGNATURE: BAD_SIGNATURE,
  FAST_JWT_INVALID_CRIT_HEADER: 'The token has an unsupported critical header',
}

/** What a token that lacks a claim this server requires is told. */
const MISSING_CLAIM: Record<string, string> = {
  sub: 'The token has no subject (sub)',
  exp: 'The token has no expiry (exp)',
  iss: 'The token has no issuer (iss); this agent accepts only its issuers',
  aud: 'The token has no audience (aud); this agent accepts only its own',
}

/** fast-jwt's "The sub claim is required.", also when @fastify/jwt wraps it as TOKEN_INVALID. */
function missingClaim(message: string): AuthenticationError | undefined {
  const claim = /\bThe (\w+) claim is required\b/.exec(message)?.[1]
  if (claim === undefined) return undefined
  const known = Object.hasOwn(MISSING_CLAIM, claim) ? MISSING_CLAIM[claim] : undefined
  return invalidToken(known ?? `The token has no ${claim} claim`)
}

/**
 * An Authorization header that carries no Bearer token. Its scheme is named when it looks like
 * one (`Token`, `Basic`), never more of the header: the rest may be a secret.
 */
function wrongScheme(authorization: string | undefined, challenged: string): AuthenticationError {
  const header = authorization?.trim() ?? ''
  const first = header.split(/\s+/)[0]!
  const said =
    /^[A-Za-z][\w-]{0,19}$/.test(first) && first.toLowerCase() !== 'bearer'
      ? ` (it uses "${first}")`
      : header.includes('.') && !/\s/.test(header)
        ? ' (it has no scheme)'
        : ''
  return new AuthenticationError(`${NOT_BEARER}${said}`, challenged, NOT_BEARER)
}

const NOT_BEARER = 'The Authorization header must be "Bearer <token>"'

/** A request without credentials: the challenge names no error (RFC 6750 §3.1). */
export const missingCredentials = (): AuthenticationError =>
  new AuthenticationError(
    'Authentication required: send "Authorization: Bearer <token>"',
    challenge(),
  )

/**
 * What went wrong with a request's token. `authorization`: the request's header, which says
 * whether a header without a Bearer token was sent at all (`Token <jwt>`, a bare JWT).
 */
export function toAuthError(error: unknown, authorization?: string): A2AError {
  if (error instanceof A2AError) return error
  const { code = '', message = '' } = (error ?? {}) as { code?: string; message?: string }
  if (code === 'FST_JWT_NO_AUTHORIZATION_IN_HEADER') {
    // Another scheme is no Bearer credential: the bare challenge, as for none (RFC 6750 §3.1).
    return authorization?.trim() ? wrongScheme(authorization, challenge()) : missingCredentials()
  }
  if (code === 'FST_JWT_BAD_REQUEST') {
    return wrongScheme(authorization, challenge('invalid_request', NOT_BEARER))
  }
  const known = TOKEN_PROBLEMS[code]
  if (known) return invalidToken(known)
  const missing = missingClaim(message)
  if (missing) return missing
  if (code === 'FST_JWT_AUTHORIZATION_TOKEN_INVALID' || code === 'FAST_JWT_INVALID_CLAIM_VALUE') {
    // fast-jwt says which check failed; its wording names no value.
    if (/signature/i.test(message)) return invalidToken(BAD_SIGNATURE)
    if (/malformed/i.test(message)) return invalidToken('The token is malformed')
    if (/\biss\b/i.test(message)) return invalidToken('The token issuer is not accepted')
    if (/\baud\b/i.test(message)) return invalidToken('The token audience is not accepted')
    return invalidToken('The token is invalid')
  }
  if (code === 'FST_JWT_AUTHORIZATION_TOKEN_UNTRUSTED') return invalidToken('The token is invalid')
  if (code.startsWith('FAST_JWT_') || code.startsWith('FST_JWT_')) {
    return invalidToken('The token is invalid')
  }
  return new ServiceUnavailableError('Tokens cannot be verified right now', { cause: error })
}
