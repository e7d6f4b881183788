/**
 * AUDIT_FILE has one writer, across real processes: a second server started on the file a live
 * one writes does not start (exit 78, naming AUDIT_FILE and the fix), and a server started after
 * the writer was killed (SIGKILL: its lock is left behind) takes the file over and continues the
 * same chain.
 */
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyChain } from '../../src/audit/verify.js'
import { TEST_SECRET } from '../helpers/auth.js'
import { freePort, root, waitFor } from '../multiprocess/cluster.js'
import { post, taskFor } from '../multiprocess/requests.js'

const children = new Set<ReturnType<typeof spawn>>()
let dir = ''

beforeAll(() => {
  if (!existsSync(join(root, 'dist', 'server.js'))) {
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'pipe', timeout: 180_000 })
  }
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'a2a-audit-file-')))
}, 200_000)
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
  rmSync(dir, { recursive: true, force: true })
})

async function startServer(file: string) {
  const port = await freePort()
  const child = spawn(process.execPath, ['dist/server.js'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      BUNDLED_SKILLS: 'echo',
      AUTH_JWT_SECRET: TEST_SECRET,
      AUDIT_SINK: 'file',
      AUDIT_FILE: file,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  children.add(child)
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  const url = `http://127.0.0.1:${port}`
  const ready = async () => {
    await waitFor('the server', async () =>
      (await fetch(`${url}/healthz`).catch(() => undefined))?.ok ? true : undefined,
    )
  }
  return { child, url, exited, ready, stderr: () => stderr }
}

const records = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { seq: number; taskId: string })

describe('AUDIT_FILE across processes', () => {
  it('refuses a second writer with exit 78; a writer killed leaves the file to the next one, chain intact', async () => {
    const file = join(dir, 'audit.jsonl')
    const first = await startServer(file)
    await first.ready()
    const before = await post(first.url, '/tasks/send', taskFor('echo', 'one'))
    expect(before.body.status.state).toBe('completed')

    // It waits for the lock to go stale (about 11 s), then gives up.
    const second = await startServer(file)
    expect(await second.exited).toBe(78)
    expect(second.stderr()).toContain(
      `AUDIT_FILE: cannot open "${file}": another process writes it (its lock ${file}.lock is live): two writers would fork its hash chain. Give each process its own AUDIT_FILE, or use AUDIT_SINK=redis for several processes`,
    )
    expect(first.child.exitCode).toBe(null)

    first.child.kill('SIGKILL')
    await first.exited
    const third = await startServer(file)
    await third.ready()
    const after = await post(third.url, '/tasks/send', taskFor('echo', 'two'))
    expect(after.body.status.state).toBe('completed')
    third.child.kill('SIGTERM')
    expect(await third.exited).toBe(0)

    const written = records(file)
    expect(written.map((record) => record.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
    expect(written.map((record) => record.taskId)).toEqual([
      ...Array(4).fill(before.body.id),
      ...Array(4).fill(after.body.id),
    ])
    expect(verifyChain(written)).toMatchObject({ ok: true, count: 8, firstSeq: 1 })
    expect(existsSync(`${file}.lock`)).toBe(false)
  }, 60_000)
})
