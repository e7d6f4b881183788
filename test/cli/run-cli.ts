/**
 * Runs the BUILT `a2a` binary as a user would: `node dist/cli/main.js …` in its own process,
 * with the environment it is given (no inherited A2A_TOKEN) and stdin as the test says.
 */
import { execFileSync, spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'

export const root = new URL('../../', import.meta.url).pathname
export const cliPath = join(root, 'dist', 'cli', 'main.js')

/** Builds dist/ once when it is missing (`npm test` builds it first). */
export function ensureBuilt(): void {
  if (existsSync(cliPath)) return
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'pipe', timeout: 180_000 })
}

export interface CliRun {
  code: number | null
  /** The signal that ended it, when one did (Ctrl-C: SIGINT). */
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

export interface CliOptions {
  env?: Record<string, string>
  /** Written to stdin, which is then closed; stdin is closed at once without it. */
  stdin?: string
}

const running = new Set<ChildProcess>()

/** Starts `a2a …`; `done` resolves when it exits. */
export function startCli(args: string[], options: CliOptions = {}) {
  const child = spawn(process.execPath, [cliPath, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  running.add(child)
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  child.stdin.end(options.stdin ?? '')
  const done = new Promise<CliRun>((resolve) =>
    child.once('close', (code, signal) => {
      running.delete(child)
      resolve({ code, signal, stdout, stderr })
    }),
  )
  return { child, done, stdout: () => stdout, stderr: () => stderr }
}

export const runCli = (args: string[], options: CliOptions = {}): Promise<CliRun> =>
  startCli(args, options).done

export function killRunning(): void {
  for (const child of running) child.kill('SIGKILL')
  running.clear()
}

/** The output with every UUID replaced by `<id>`, to compare whole outputs. */
export const withoutIds = (text: string): string =>
  text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>')
