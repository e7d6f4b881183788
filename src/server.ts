/**
 * The process: reads the configuration, builds the app, listens, and closes cleanly on
 * SIGTERM/SIGINT (stop intake, drain running turns, then exit).
 */
import { buildApp } from './app.js'
import { ConfigError, loadConfig } from './config.js'

async function main(): Promise<void> {
  let config
  try {
    config = loadConfig()
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`)
      process.exit(78) // EX_CONFIG
    }
    throw error
  }

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
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  )
  process.exit(1)
})
