/**
 * The process as the container runs it: `node dist/server.js` on the BUILT output, with the
 * given environment as its only input (plus PATH; production, the test secret, `warn` logs
 * unless the test says otherwise). `useServerProcesses()` builds dist/ once if it is missing
 * (as `npm start` would) and kills what a test left running.
 */
import { execFileSync, spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeAll } from 'vitest'
import { TEST_SECRET } from './auth.js'
import { freePort } from './free-port.js'

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

export interface ServerProcess {
  child: ChildProcess
  stderr: () => string
  stdout: () => string
}

export interface StartedServer extends ServerProcess {
  url: string
}

export interface Exit {
  code: number | null
  signal: NodeJS.Signals | null
}

export function useServerProcesses() {
  const children = new Set<ChildProcess>()

  beforeAll(() => {
    if (existsSync(join(root, 'dist', 'server.js'))) return
    try {
      execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'pipe', timeout: 180_000 })
    } catch (error) {
      // tsc reports on stdout: put it in the failure.
      const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer }
      throw new Error(`npm run build failed:\n${String(stdout ?? '')}${String(stderr ?? '')}`, {
        cause: error,
      })
    }
  }, 200_000)

  afterEach(() => {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    }
    children.clear()
  })

  /** Starts `node dist/server.js` with `env`; does not wait for it. */
  function spawnServer(env: Record<string, string>): ServerProcess {
    const child = spawn(process.execPath, ['dist/server.js'], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        AUTH_JWT_SECRET: TEST_SECRET,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    children.add(child)
    let stderr = ''
    let stdout = ''
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    return { child, stderr: () => stderr, stdout: () => stdout }
  }

  /** Starts the server on a free loopback port and waits until /healthz answers. */
  async function startServer(env: Record<string, string> = {}): Promise<StartedServer> {
    const port = await freePort()
    const started = spawnServer({ HOST: '127.0.0.1', PORT: String(port), ...env })
    const { child, stderr } = started
    const url = `http://127.0.0.1:${port}`
    const deadline = Date.now() + 10_000
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(
          `server exited (${child.exitCode ?? child.signalCode}) before listening:\n${stderr()}`,
        )
      }
      try {
        const response = await fetch(`${url}/healthz`)
        if (response.ok) return { ...started, url }
      } catch {
        // Not listening yet.
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    throw new Error(`server did not answer /healthz within 10 s:\n${stderr()}`)
  }

  return { spawnServer, startServer }
}

/** How `child` exits; rejects if it is still running after `timeoutMs`. */
export function exited(child: ChildProcess, timeoutMs: number): Promise<Exit> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode })
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`process still running after ${timeoutMs} ms`)),
      timeoutMs,
    )
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal })
    })
  })
}
