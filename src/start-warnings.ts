/**
 * What the server says at start about settings it runs with but should not: each a `warn` line
 * naming the setting and what to set instead. Most are about production (NODE_ENV=production),
 * where an open door is no longer a convenience; none stops the start.
 */
import type { Config } from './config.js'

/** Names of this machine alone, as HOST or as a URL's hostname (IPv6 in brackets). */
const LOOPBACK = ['localhost', '127.0.0.1', '::1', '[::1]']

export function startWarnings(config: Config): string[] {
  const production = config.NODE_ENV === 'production'
  const servesApi = config.ROLE !== 'worker'
  return [
    plainJwks(config.AUTH_JWKS_URL),
    production ? unboundTokens(config) : undefined,
    production && servesApi ? plainPublicUrl(config) : undefined,
    production && servesApi && config.CORS_ORIGINS.includes('*')
      ? 'CORS_ORIGINS is *: a page on any web site may call this agent from a browser, with any token the page holds; name the origins of your own web apps instead'
      : undefined,
    production && servesApi && config.TRUST_PROXY === true
      ? 'TRUST_PROXY is true: every X-Forwarded-For is believed, so a client that reaches this process directly picks the address its rate limit and audit records go by; name your proxies (addresses, ranges) or their hop count instead'
      : undefined,
    production && servesApi && config.RATE_LIMIT_MAX === 0
      ? 'RATE_LIMIT_MAX is 0: requests are not rate limited, so one caller can take all of this server; set a budget per caller'
      : undefined,
    production && config.AUDIT_SINK === 'off'
      ? 'AUDIT_SINK is off: no audit record is kept of who did what; choose stdout, file or redis'
      : undefined,
    tokenlessOrchestrator(config),
    // Dev mode is for this machine: on another interface, a forgotten NODE_ENV is an open server.
    servesApi && config.AUTH.mode === 'dev' && !LOOPBACK.includes(config.HOST)
      ? `DEV MODE on HOST=${config.HOST}: other machines can reach this development server; a deployment sets NODE_ENV=production and a key (AUTH_JWT_SECRET, AUTH_JWT_PUBLIC_KEY or AUTH_JWKS_URL)`
      : undefined,
  ].filter((warning): warning is string => warning !== undefined)
}

/**
 * The orchestrate skill calls other agents as itself: without a token of its own, every agent
 * that verifies tokens refuses it, which a user otherwise learns only from a failed delegation.
 */
function tokenlessOrchestrator(config: Config): string | undefined {
  if (!config.BUNDLED_SKILLS.includes('orchestrate')) return undefined
  if (config.ORCHESTRATOR_AGENT_TOKEN !== undefined) return undefined
  if (config.ORCHESTRATOR_AGENT_TOKEN_FILE !== undefined) return undefined
  return 'the orchestrate skill calls registered agents without a token (ORCHESTRATOR_AGENT_TOKEN and ORCHESTRATOR_AGENT_TOKEN_FILE are unset): every agent that verifies tokens will refuse it; give it a token for them'
}

/**
 * Keys fetched over plain HTTP from another machine can be swapped on the way, and with them
 * every token accepted (a JWKS on this machine, as in development, is fine).
 */
function plainJwks(jwksUrl: string | undefined): string | undefined {
  if (jwksUrl === undefined) return undefined
  const { protocol, hostname } = new URL(jwksUrl)
  if (protocol !== 'http:' || LOOPBACK.includes(hostname)) return undefined
  return `AUTH_JWKS_URL is plain http (${jwksUrl}): whoever can change that traffic can sign tokens this server accepts; use https`
}

/**
 * An identity provider's key (a public key, a JWKS) signs the tokens of every app it serves:
 * without an issuer and an audience to check, a token it issued for another app is accepted
 * here too (a shared secret is this agent's own).
 */
function unboundTokens(config: Config): string | undefined {
  const { AUTH } = config
  if (AUTH.mode !== 'jwks' && AUTH.mode !== 'public-key') return undefined
  const unset = [
    ...(AUTH.issuers ? [] : ['AUTH_JWT_ISSUER']),
    ...(AUTH.audiences ? [] : ['AUTH_JWT_AUDIENCE']),
  ]
  if (unset.length === 0) return undefined
  return `${unset.join(' and ')} not set: any token the key verifies is accepted, whoever it was issued by and for (also a token your identity provider issued for another app); set ${unset.length === 1 ? 'it' : 'them'}`
}

/**
 * The cards send clients to PUBLIC_URL: over plain http to another machine, their tokens and
 * messages cross the network in clear. (Unset, it has a warning of its own: see server.ts.)
 */
function plainPublicUrl(config: Config): string | undefined {
  if (config.PUBLIC_URL_IS_LOCAL_DEFAULT) return undefined
  const { protocol, hostname } = new URL(config.PUBLIC_URL)
  if (protocol !== 'http:' || LOOPBACK.includes(hostname)) return undefined
  return `PUBLIC_URL is plain http (${config.PUBLIC_URL}): the Agent Cards send clients there, and their tokens and messages cross the network in clear; serve HTTPS (a TLS-terminating proxy will do) and set PUBLIC_URL to its https:// address`
}
