/**
 * The process: reads the configuration, builds the app, listens, and closes cleanly on
 * SIGTERM/SIGINT (stop intake, drain running turns, then exit). A setting it cannot start
 * with exits 78 (EX_CONFIG) with a message naming it; any other start failure exits 1.
 */
import { buildApp } from './app.js'
import { newDevSecret, removeDevSecret, writeDevSecret } from './auth/dev-secret.js'
import { devToken } from './auth/dev-token.js'
import type { Config } from './config.js'
import { ConfigError, loadConfig } from './config.js'

async function main(): Promise<void> {
  const config = loadConfig()
  const devSecret = config.AUTH.mode === 'dev' ? newDevSecret() : undefined
  const app = await buildApp(config, { ...(devSecret && { devSecret }) })
  let closing = false
  const close = (signal: NodeJS.Signals) => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'shutting down')
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed')
        process.exit(1)
      },
    )
  }
  process.once('SIGTERM', close)
  process.once('SIGINT', close)

  // Written before listening: once the server answers, `a2a token` can mint for it.
  if (devSecret) await keepDevSecret(config, devSecret)
  await app.listen({ host: config.HOST, port: config.PORT })
  app.log.info(
    {
      url: config.PUBLIC_URL,
      agent: config.AGENT_NAME,
      skills: app.agent.skills.map((s) => s.id),
      auth: config.AUTH.mode,
    },
    `A2A agent ready: curl ${config.PUBLIC_URL}/.well-known/agent.json`,
  )
  if (devSecret) announceDevMode(config, devSecret, app.log)
}

async function keepDevSecret(config: Config, secret: string): Promise<void> {
  if (config.AUTH.mode !== 'dev') return
  const file = config.AUTH.secretFile
  await writeDevSecret(file, secret)
  process.once('exit', () => removeDevSecret(file, secret))
}

/**
 * Dev mode: no AUTH_* settings outside production. The ephemeral secret is in a 0600 file for
 * `a2a token`; a ready token and a curl line go to stderr, for the person at the terminal.
 */
function announceDevMode(
  config: Config,
  secret: string,
  log: { warn(object: object, message: string): void },
): void {
  log.warn(
    { auth: 'dev', secretFile: config.AUTH.mode === 'dev' ? config.AUTH.secretFile : undefined },
    'DEV MODE: tokens are signed with an ephemeral secret made at start; set AUTH_JWT_SECRET, AUTH_JWT_PUBLIC_KEY or AUTH_JWKS_URL for real use',
  )
  const token = devToken(secret)
  process.stderr.write(
    [
      '',
      'DEV MODE - authentication uses an ephemeral secret (new at every start).',
      `Token (1 hour, scopes a2a:invoke skill:*): ${token}`,
      `Try: curl -H "Authorization: Bearer ${token}" ${config.PUBLIC_URL}/a2a/rest/extendedAgentCard`,
      'Mint more with: npx a2a token --sub alice --scope a2a:invoke --scope skill:echo',
      '',
    ].join('\n'),
  )
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`)
    process.exit(78)
  }
  const message = error instanceof Error ? error.message : String(error)
  process.stderr.write(`The server could not start: ${message}\n`)
  process.exit(1)
})
