/**
 * The default audit sink of a server without Redis: JSON lines on stdout beside pino's log
 * lines, told apart by their fields, flushed at shutdown, and a valid chain.
 */
import { TEST_SECRET } from '../helpers/auth.js'
import { execFileSync, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { verifyChain } from '../../src/audit/verify.js'
import { freePort, root, waitFor } from '../multiprocess/cluster.js'
import { post, taskFor } from '../multiprocess/requests.js'

beforeAll(() => {
  if (!existsSync(join(root, 'dist', 'server.js'))) {
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'pipe', timeout: 180_000 })
  }
}, 200_000)

const children: ReturnType<typeof spawn>[] = []
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
})

describe('the stdout audit sink', () => {
  it('writes audit lines that a reader tells apart from log lines', async () => {
    const port = await freePort()
    const child = spawn(process.execPath, ['dist/server.js'], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        LOG_LEVEL: 'info',
        HOST: '127.0.0.1',
        PORT: String(port),
        BUNDLED_SKILLS: 'echo',
        AUTH_JWT_SECRET: TEST_SECRET,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    children.push(child)
    let stdout = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    const exited = new Promise((resolve) => child.once('exit', resolve))
    const url = `http://127.0.0.1:${port}`
    await waitFor('the server', async () =>
      (await fetch(`${url}/healthz`).catch(() => undefined))?.ok ? true : undefined,
    )
    const reply = await post(url, '/tasks/send', taskFor('echo', 'hi'))
    expect(reply.body.status.state).toBe('completed')
    child.kill('SIGTERM')
    await exited

    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    const audit = lines.filter((line) => line.audit === 1)
    const logs = lines.filter((line) => line.audit === undefined)
    expect(lines).toHaveLength(audit.length + logs.length)
    expect(logs.length).toBeGreaterThan(0)
    for (const log of logs)
      expect(log).toMatchObject({ level: expect.any(Number), msg: expect.any(String) })
    for (const record of audit) {
      expect(record).not.toHaveProperty('level')
      expect(record).not.toHaveProperty('msg')
    }
    expect(audit.map((record) => record.event)).toEqual([
      'task-received',
      'state-change',
      'artifact-delivered',
      'state-change',
    ])
    expect(audit.every((record) => record.taskId === reply.body.id)).toBe(true)
    expect(verifyChain(audit)).toMatchObject({ ok: true, count: 4, firstSeq: 1 })
  }, 30_000)
})
