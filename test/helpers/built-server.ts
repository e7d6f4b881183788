/**
 * The built server as `npm start` runs it (`node dist/server.js` in the repo), on a free port,
 * for the tests that run the docs' examples as a user would. Builds dist/ first if it is missing.
 */
import { execFileSync, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { freePort } from '../client/agents.js'

export const root = new URL('../../', import.meta.url).pathname

export interface BuiltServer {
  port: number
  stop(): void
}

export async function startBuiltServer(env: Record<string, string>): Promise<BuiltServer> {
  if (!existsSync(`${root}dist/server.js`) || !existsSync(`${root}dist/client/index.js`)) {
    execFileSync('npm', ['run', 'build'], { cwd: root })
  }
  const port = await freePort()
  const server = spawn('node', ['dist/server.js'], {
    cwd: root,
    // The embedded default, as on a fresh machine: the REDIS_URL a test run may set is for the
    // tests' own Redis, not for this server (an empty variable is unset).
    env: { ...process.env, REDIS_URL: '', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: 'ignore',
  })
  const stop = () => server.kill('SIGTERM')
  for (let attempt = 0; attempt < 100; attempt++) {
    const ready = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    )
    if (ready) return { port, stop }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  stop()
  throw new Error('the server did not start')
}
