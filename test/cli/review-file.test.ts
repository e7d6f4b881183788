/**
 * `a2a send --file change.patch` to the Code Review Agent's review-pr skill: the CLI sends the
 * file with its diff media type, the skill reviews it, and the review prints as for a diff sent
 * as text. The built CLI against a real server.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../client/agents.js'
import { testApp } from '../helpers/app.js'
import { token } from '../helpers/auth.js'
import { ensureBuilt, killRunning, runCli } from './run-cli.js'

let app: FastifyInstance
let url: string
let dir: string

beforeAll(async () => {
  ensureBuilt()
  dir = mkdtempSync(join(tmpdir(), 'a2a-cli-review-'))
  const port = await freePort()
  url = `http://127.0.0.1:${port}`
  app = await testApp({ PUBLIC_URL: url })
  await app.listen({ host: '127.0.0.1', port })
}, 200_000)
afterAll(async () => {
  killRunning()
  await app.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('a2a send --file with review-pr', () => {
  it.each(['change.patch', 'change.diff'])('reviews %s', async (name) => {
    const file = join(dir, name)
    writeFileSync(
      file,
      [
        '--- a/app/db.py',
        '+++ b/app/db.py',
        '@@ -8,2 +8,2 @@',
        ' def find_user(cur, name):',
        '-    cur.execute("SELECT id FROM users WHERE name = %s", (name,))',
        `+    cur.execute(f"SELECT id FROM users WHERE name = '{name}'")`,
        '',
      ].join('\n'),
    )
    const run = await runCli(['send', url, '--skill', 'review-pr', '--file', file], {
      env: { A2A_TOKEN: token() },
    })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('app/db.py:9 [critical] SQL query built from values')
    expect(run.stdout).toMatch(/\[completed\] 1 finding in 1 file: 1 critical\n$/)
  })
})
