/** The ready-made token a dev-mode server prints: every skill, one hour. */
import { INVOKE_SCOPE, ALL_SKILLS_SCOPE } from '../domain/caller.js'
import { callerClaims, signJwt } from './jws.js'

export const DEV_SUBJECT = 'dev-user'
export const DEV_SCOPES = [INVOKE_SCOPE, ALL_SKILLS_SCOPE]

export function devToken(secret: string, ttlSeconds = 3600): string {
  return signJwt(callerClaims({ sub: DEV_SUBJECT, scopes: DEV_SCOPES, ttlSeconds }), {
    alg: 'HS256',
    key: secret,
  })
}
