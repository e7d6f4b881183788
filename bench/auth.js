/**
 * Our servers run in the benchmark as a production deployment would: authentication on (a
 * known HS256 secret, and a token minted for it, sent with every request to every server), the
 * audit log on (its default sink), and the rate limiter on, with a budget no run can spend, so
 * its cost is measured but it never refuses. Bare Fastify and the SDK's server ignore the header.
 */
import process from 'node:process'
import { callerClaims, signJwt } from '../dist/auth/jws.js'

const SECRET = 'bench-secret-0123456789-abcdefghijklmnopqrstuvwxyz'

/**
 * The settings our servers get, on top of each one's own. The limits' budgets give way to the
 * environment (`RATE_LIMIT_MAX=0 npm run bench`: the limiter off); the secret does not, as every
 * request's token is signed with it.
 */
export const SECURED = {
  AUTH_JWT_SECRET: SECRET,
  RATE_LIMIT_MAX: process.env.RATE_LIMIT_MAX || '1000000000',
  RATE_LIMIT_DISCOVERY_MAX: process.env.RATE_LIMIT_DISCOVERY_MAX || '1000000000',
}

/** `authorization` for every request: a caller that may use every skill. */
export const AUTH_HEADERS = {
  authorization: `Bearer ${signJwt(
    callerClaims({ sub: 'bench', scopes: ['a2a:invoke', 'skill:*'], ttlSeconds: 24 * 3600 }),
    { alg: 'HS256', key: SECRET },
  )}`,
}
