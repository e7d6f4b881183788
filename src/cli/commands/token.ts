/**
 * `a2a token`: mints an HS256 token for a server that verifies with a shared secret, from
 * --secret, AUTH_JWT_SECRET, or the secret file a dev-mode server writes (.a2a/dev-secret).
 * Prints the token alone, so that `export A2A_TOKEN=$(npx a2a token)` works.
 */
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { parseArgsProblem } from '../agent/options.js'
import { readDevSecret } from '../../auth/dev-secret.js'
import { callerClaims, durationSeconds, signJwt } from '../../auth/jws.js'
import { MIN_SECRET_LENGTH } from '../../auth/settings.js'
import { ALL_SKILLS_SCOPE, INVOKE_SCOPE } from '../../domain/caller.js'

export const summary = 'mint a bearer token (HS256) for this server'

const HELP = `Usage: a2a token [options]

Mints an HS256 JWT and prints it. The secret is --secret, else AUTH_JWT_SECRET, else the file a
dev-mode server writes (AUTH_DEV_SECRET_FILE, default .a2a/dev-secret).

Options:
  --sub <id>         the caller (sub claim)                 default: dev-user
  --scope <scope>    a scope; repeat for more               default: ${INVOKE_SCOPE} ${ALL_SKILLS_SCOPE}
  --tenant <id>      the tenant claim (AUTH_TENANT_CLAIM, default "tenant")
  --ttl <duration>   lifetime: 30s, 15m, 1h, 7d             default: 1h
  --issuer <iss>     the iss claim                          default: first of AUTH_JWT_ISSUER
  --audience <aud>   the aud claim                          default: first of AUTH_JWT_AUDIENCE
  --secret <secret>  the HS256 secret

Exit codes: 0 printed; 64 a bad option (a --secret shorter than ${MIN_SECRET_LENGTH} characters too);
78 no secret, one from the environment or the dev secret file shorter than ${MIN_SECRET_LENGTH} characters,
or a server that verifies tokens with AUTH_JWT_PUBLIC_KEY or AUTH_JWKS_URL (not HS256).
`

const first = (list: string | undefined): string | undefined =>
  list
    ?.split(',')
    .map((item) => item.trim())
    .find(Boolean)

/** A dev-mode server's secret file is here, and holds another secret than `secret`. */
function devSecretDiffers(secretFile: string, secret: string): boolean {
  const dev = readDevSecret(secretFile)
  return dev !== undefined && dev !== secret
}

/** The caller a token is for when --sub names none: dev mode's user. */
const DEFAULT_SUB = 'dev-user'

export async function run(argv: string[], env = process.env): Promise<number> {
  let values
  try {
    ;({ values } = parseArgs({
      args: argv,
      options: {
        sub: { type: 'string' },
        scope: { type: 'string', multiple: true },
        tenant: { type: 'string' },
        ttl: { type: 'string', default: '1h' },
        issuer: { type: 'string' },
        audience: { type: 'string' },
        secret: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }))
  } catch (error) {
    process.stderr.write(`a2a token: ${parseArgsProblem(error as Error)}\n\n${HELP}`)
    return 64
  }
  if (values.help) {
    process.stdout.write(HELP)
    return 0
  }
  // The server refuses a token without a subject, or with an empty tenant.
  const empty = values.sub?.trim() === '' ? 'sub' : values.tenant?.trim() === '' ? 'tenant' : ''
  if (empty) {
    process.stderr.write(`a2a token: --${empty} must not be empty\n`)
    return 64
  }
  const ttlSeconds = durationSeconds(values.ttl)
  if (ttlSeconds === undefined) {
    process.stderr.write(
      `a2a token: --ttl "${values.ttl}" is not a duration like 30s, 15m, 1h, 7d\n`,
    )
    return 64
  }
  const keySource = env.AUTH_JWT_PUBLIC_KEY
    ? 'AUTH_JWT_PUBLIC_KEY'
    : env.AUTH_JWKS_URL
      ? 'AUTH_JWKS_URL'
      : undefined
  if (values.secret === undefined && !env.AUTH_JWT_SECRET && keySource !== undefined) {
    // The dev secret would sign a token that this server refuses.
    process.stderr.write(
      `a2a token: ${keySource} is set: this server verifies tokens signed with a private key, which a2a token does not have (it signs HS256 with a shared secret). Get tokens from whoever holds that key (your identity provider)\n`,
    )
    return 78
  }
  const secretFile = env.AUTH_DEV_SECRET_FILE || '.a2a/dev-secret'
  const secret = values.secret ?? (env.AUTH_JWT_SECRET || readDevSecret(secretFile))
  if (!secret) {
    process.stderr.write(
      `a2a token: no secret. Pass --secret, set AUTH_JWT_SECRET, or start the server in dev mode (npm start) so that it writes ${resolve(secretFile)} (AUTH_DEV_SECRET_FILE, relative to the directory it starts in)\n`,
    )
    return 78
  }
  if (secret.length < MIN_SECRET_LENGTH) {
    // The server refuses to start with such a secret: a token signed with it verifies nowhere.
    const source =
      values.secret !== undefined
        ? '--secret'
        : env.AUTH_JWT_SECRET
          ? 'AUTH_JWT_SECRET'
          : secretFile
    process.stderr.write(
      `a2a token: ${source} is ${secret.length} characters; an HS256 secret must be at least ${MIN_SECRET_LENGTH}\n`,
    )
    return values.secret !== undefined ? 64 : 78
  }
  const issuer = values.issuer ?? first(env.AUTH_JWT_ISSUER)
  const audience = values.audience ?? first(env.AUTH_JWT_AUDIENCE)
  const claims = callerClaims({
    sub: values.sub ?? DEFAULT_SUB,
    scopes: values.scope ?? [INVOKE_SCOPE, ALL_SKILLS_SCOPE],
    ttlSeconds,
    ...(values.tenant !== undefined && { tenant: values.tenant }),
    ...(env.AUTH_TENANT_CLAIM && { tenantClaim: env.AUTH_TENANT_CLAIM }),
    ...(issuer !== undefined && { issuer }),
    ...(audience !== undefined && { audience }),
  })
  if (values.secret === undefined && !env.AUTH_JWT_SECRET) {
    // Said because it is chosen silently: a server started with AUTH_JWT_SECRET refuses it.
    process.stderr.write(
      `a2a token: signed with the dev-mode secret in ${resolve(secretFile)} (no --secret, no AUTH_JWT_SECRET)\n`,
    )
  } else if (values.secret === undefined && devSecretDiffers(secretFile, secret)) {
    // An AUTH_JWT_SECRET left exported beside a dev-mode server: its tokens are refused there.
    process.stderr.write(
      `a2a token: signed with AUTH_JWT_SECRET from the environment; a dev-mode server started here signs with ${resolve(secretFile)} instead and refuses this token (unset AUTH_JWT_SECRET to mint for it)\n`,
    )
  } else if (values.sub === undefined) {
    // A real secret: the token is a real caller's, whose name and scopes the audit log keeps.
    process.stderr.write(
      `a2a token: for the default caller "${DEFAULT_SUB}"${values.scope ? '' : ' with every skill (a2a:invoke skill:*)'}; name the caller with --sub${values.scope ? '' : ' and its scopes with --scope'}\n`,
    )
  }
  process.stdout.write(`${signJwt(claims, { alg: 'HS256', key: secret })}\n`)
  return 0
}
