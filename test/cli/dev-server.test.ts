/**
 * A new user's first minutes: `npm start` (the built server, dev mode) prints a token; the
 * `a2a` binary reads the card and sends with that token, or with one `a2a token` mints from the
 * dev secret file.
 */
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../client/agents.js'
import { ensureBuilt, root, runCli, withoutIds } from './run-cli.js'

let server: ChildProcess
let url: string
let printedToken: string
const dir = mkdtempSync(join(tmpdir(), 'a2a-cli-dev-'))
const secretFile = join(dir, 'dev-secret')

beforeAll(async () => {
  ensureBuilt()
  const port = await freePort()
  url = `http://localhost:${port}`
  server = spawn(process.execPath, ['dist/server.js'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'development',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      AUTH_DEV_SECRET_FILE: secretFile,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  server.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  for (let i = 0; i < 300; i++) {
    const token = /Token \(1 hour[^)]*\): (\S+)/.exec(stderr)?.[1]
    if (token !== undefined) {
      printedToken = token
      return
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`the dev server printed no token:\n${stderr}`)
}, 200_000)
afterAll(() => {
  server.kill('SIGTERM')
  rmSync(dir, { recursive: true, force: true })
})

describe.concurrent('a2a against `npm start` in dev mode', () => {
  it('card needs no token', async () => {
    const run = await runCli(['card', url])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('Code Review Agent 1.0.0\n')
    expect(run.stdout).toContain(`Dialect:   jsonrpc-1.0 at ${url}/a2a/jsonrpc\n`)
    expect(run.stdout).toMatch(/\n {2}review-pr {2}Review Pull Request - /)
  })

  it('send works with the token the server printed, in A2A_TOKEN', async () => {
    const run = await runCli(['send', url, '--skill', 'echo', 'hello'], {
      env: { A2A_TOKEN: printedToken },
    })
    expect(run.code).toBe(0)
    expect(withoutIds(run.stdout)).toBe('task <id>\nartifact echo:\n  hello\n[completed] hello\n')
  })

  it('stream works with a token from `a2a token` in --token', async () => {
    const minted = await runCli(['token'], { env: { AUTH_DEV_SECRET_FILE: secretFile } })
    expect(minted.code).toBe(0)
    const run = await runCli([
      'stream',
      url,
      '--skill',
      'echo',
      '--token',
      minted.stdout.trim(),
      'hi there',
    ])
    expect(run.code).toBe(0)
    expect(withoutIds(run.stdout)).toBe(
      'task <id>\n[submitted]\n[working]\nartifact echo:\n  hi there\n[completed] hi there\n',
    )
  })
})
