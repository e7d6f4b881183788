/**
 * The process: reads the configuration, builds the app, listens, and closes cleanly on
 * SIGTERM/SIGINT (stop intake, drain running turns, then exit). A setting it cannot start
 * with exits 78 (EX_CONFIG) with a message naming it; any other start failure exits 1.
 */
import { buildApp } from './app.js'
import { ConfigError, loadConfig } from './config.js'

async function main(): Promise<void> {
  const config = loadConfig()
  const app = await buildApp(config)
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

  await app.listen({ host: config.HOST, port: config.PORT })
  app.log.info(
    { url: config.PUBLIC_URL, agent: config.AGENT_NAME, skills: app.agent.skills.map((s) => s.id) },
    `A2A agent ready: curl ${config.PUBLIC_URL}/.well-known/agent.json`,
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
