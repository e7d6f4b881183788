/**
 * The process: reads the configuration, builds the app, listens, and closes cleanly on
 * SIGTERM/SIGINT (stop intake, drain running turns, then exit). A setting it cannot start
 * with exits 78 (EX_CONFIG) with a message naming it; any other start failure exits 1.
 */
import { EventEmitter, once } from 'node:events'
import { resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import { symbols } from 'pino'
import { buildApp } from './app.js'
import { devSecretIn } from './auth/dev-secret.js'
import { devToken } from './auth/dev-token.js'
import type { Config } from './config.js'
import type { Unusable } from './http/routes/health.js'
import { ConfigError, loadConfig } from './config.js'

/** The longest a stop waits for its last log lines to be written (a stdout nobody reads). */
const LOG_FLUSH_MS = 2000

/**
 * Exits once every line logged so far is written. pino writes asynchronously, and its flush
 * does not wait for a write in flight: a line still in flight at `process.exit` lands after
 * the ones the exit flushes. Ending the stream waits for it (stdout itself stays open).
 */
async function exitAfterLog(log: FastifyBaseLogger, code: number): Promise<never> {
  // pino's default destination (sonic-boom): an EventEmitter that says `close` once ended.
  const stream = (log as unknown as Record<symbol, unknown>)[symbols.streamSym]
  if (stream instanceof EventEmitter && 'end' in stream && typeof stream.end === 'function') {
    const end = stream.end as () => void
    // A stdout that is gone (EPIPE) must not turn a clean stop into a crash: exit all the same.
    const closed = once(stream, 'close').catch(() => undefined)
    try {
      end.call(stream)
      await Promise.race([closed, sleep(LOG_FLUSH_MS, undefined, { ref: false })])
    } catch {
      // Ended or destroyed already: nothing left to wait for.
    }
  }
  process.exit(code)
}

async function main(): Promise<void> {
  const config = loadConfig()
  // Read (or made) before listening: once the server answers, `a2a token` can mint for it.
  const dev =
    config.AUTH.mode === 'dev'
      ? { secretFile: config.AUTH.secretFile, secret: await devSecretIn(config.AUTH.secretFile) }
      : undefined
  const app = await buildApp(config, { ...(dev && { devSecret: dev.secret }) })
  let closing = false
  const close = (signal: NodeJS.Signals) => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'shutting down')
    app.close().then(
      () => {
        app.log.info({ signal }, 'stopped')
        void exitAfterLog(app.log, 0)
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed')
        void exitAfterLog(app.log, 1)
      },
    )
  }
  process.once('SIGTERM', close)
  process.once('SIGINT', close)

  // Where this process answers: its probes and metrics are here, whatever PUBLIC_URL says (a
  // load balancer's address, or the API's, for a worker).
  const own = await app.listen({ host: config.HOST, port: config.PORT }).catch((error: unknown) => {
    throw listenProblem(error, config) ?? error
  })
  const ready = {
    url: config.PUBLIC_URL,
    agent: config.AGENT_NAME,
    skills: app.agent.skills.map((s) => s.id),
    auth: config.AUTH.mode,
    role: config.ROLE,
  }
  // A worker serves no A2A route: only the probes and the metrics.
  const worker = config.ROLE === 'worker'
  const announceReady = () =>
    app.log.info(
      ready,
      worker
        ? `A2A worker ready: runs turns from the work queue; serves ${own}/readyz and /metrics`
        : `A2A agent ready: curl ${config.PUBLIC_URL}/.well-known/agent.json`,
    )
  // Ready only once what it needs (Redis) answers; until then the start line says it waits,
  // unless nothing will answer before a restart (REDIS_URL names a database Redis lacks).
  const cannotUse = (unusable: Unusable[]) => {
    const names = unusable.map((u) => u.name).join(', ')
    const settings = [...new Set(unusable.map((u) => u.setting))].join(' and ')
    app.log.error(
      { ...ready, unusable: unusable.map((u) => u.name) },
      `A2A ${worker ? 'worker' : 'agent'} started but cannot use ${names}: ${
        worker ? 'it runs no turns, and ' : 'every request that needs it, and '
      }${own}/readyz, answer 503 until ${settings} is fixed and the process restarted`,
    )
  }
  const first = await unreachableWithin(app, FIRST_CONNECTION_MS, FIRST_POLL_MS)
  if (first.unreachable.length === 0) announceReady()
  else if (first.untilRestart.length > 0) cannotUse(first.untilRestart)
  else {
    app.log.warn(
      { ...ready, unreachable: first.unreachable },
      `A2A ${worker ? 'worker' : 'agent'} started, waiting for ${first.unreachable.join(', ')}: ${
        worker ? 'runs turns' : 'serves requests'
      } once it answers; ${own}/readyz answers 503 until then`,
    )
    void unreachableWithin(app, Infinity, WAITING_POLL_MS).then((left) => {
      if (closing) return
      if (left.unreachable.length === 0) announceReady()
      else cannotUse(left.untilRestart)
    })
  }
  if (worker) return
  if (dev) announceDevMode(config, dev, app.agent.skills[0]?.id, app.log)
  else if (config.PUBLIC_URL_IS_LOCAL_DEFAULT && config.NODE_ENV === 'production') {
    app.log.warn(
      { url: config.PUBLIC_URL },
      `PUBLIC_URL is not set: the Agent Cards send clients to ${config.PUBLIC_URL}, which is their own machine; set PUBLIC_URL to the address clients reach this server at`,
    )
  }
}

/** How long the start line waits for a first connection to Redis before it says it waits. */
const FIRST_CONNECTION_MS = 1000
/** How often a process that waits for Redis looks again: often at first, then once a second. */
const FIRST_POLL_MS = 50
const WAITING_POLL_MS = 1000

/**
 * The dependencies /readyz names as unreachable, looking again until they all answer, one of
 * them will not before a restart (`untilRestart`), or `withinMs` has passed; none once ready,
 * or when the process closes meanwhile. It asks `app.readiness()` itself, not /readyz: its
 * checks are no requests a client made, to be counted in /metrics or logged.
 */
async function unreachableWithin(
  app: FastifyInstance,
  withinMs: number,
  everyMs: number,
): Promise<{ unreachable: string[]; untilRestart: Unusable[] }> {
  const deadline = Date.now() + withinMs
  for (;;) {
    const readiness = await app.readiness()
    if (readiness.status !== 'unavailable') return { unreachable: [], untilRestart: [] }
    if (readiness.untilRestart.length > 0 || Date.now() >= deadline) return readiness
    await new Promise((resolve) => setTimeout(resolve, everyMs).unref())
  }
}

/**
 * Dev mode: no AUTH_* settings outside production. The secret is in a 0600 file for
 * `a2a token`; a ready token and a curl line go to stderr, for the person at the terminal.
 */
function announceDevMode(
  config: Config,
  { secret, secretFile }: { secret: string; secretFile: string },
  /** A skill this agent serves, for the example of a narrower token. */
  skillId: string | undefined,
  log: { warn(object: object, message: string): void },
): void {
  // Where it is, in full: `a2a token` run from another directory looks for it elsewhere.
  const secretPath = resolve(secretFile)
  log.warn(
    { auth: 'dev', secretFile: secretPath },
    'DEV MODE: tokens are signed with the dev secret in AUTH_DEV_SECRET_FILE; set AUTH_JWT_SECRET, AUTH_JWT_PUBLIC_KEY or AUTH_JWKS_URL for real use',
  )
  const token = devToken(secret)
  process.stderr.write(
    [
      '',
      `DEV MODE - tokens are signed with the dev secret in ${secretPath} (delete it for a new one).`,
      `Token (1 hour, scopes a2a:invoke skill:*): ${token}`,
      `Try: curl -H "Authorization: Bearer ${token}" ${config.PUBLIC_URL}/a2a/rest/extendedAgentCard`,
      `Mint more with: npx a2a token --sub alice --scope a2a:invoke --scope skill:${skillId ?? '<skill id>'}`,
      '',
    ].join('\n'),
  )
}

/** Why the server cannot listen where HOST and PORT say, naming the variable to change. */
function listenProblem(error: unknown, { HOST, PORT }: Config): Error | undefined {
  const code = (error as { code?: string } | undefined)?.code
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new ConfigError([`HOST: "${HOST}" is no name this machine can resolve (${code})`])
    case 'EADDRNOTAVAIL':
      return new ConfigError([`HOST: ${HOST} is not an address of this machine (${code})`])
    case 'EACCES':
      return new ConfigError([
        `PORT: ${PORT} needs privileges here; use a port from 1024 (${code})`,
      ])
    case 'EADDRINUSE':
      return new Error(`PORT: ${PORT} is already in use on ${HOST} (${code})`)
  }
  return undefined
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
