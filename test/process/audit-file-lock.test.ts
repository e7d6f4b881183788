/**
 * AUDIT_FILE has one writer, across real processes: a second server started on the file a live
 * one writes does not start (exit 78, naming AUDIT_FILE and the fix), and a server started after
 * the writer was killed (SIGKILL: its lock is left behind) takes the file over and continues the
 * same chain.
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyChain } from '../../src/audit/verify.js'
import { post, taskFor } from '../multiprocess/requests.js'
import { exited, useServerProcesses } from '../helpers/server-process.js'

const { spawnServer, startServer } = useServerProcesses()
let dir = ''

beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'a2a-audit-file-')))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const auditedBy = (file: string) => ({
  BUNDLED_SKILLS: 'echo',
  AUDIT_SINK: 'file',
  AUDIT_FILE: file,
})

const records = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { seq: number; taskId: string })

describe('AUDIT_FILE across processes', () => {
  it('refuses a second writer with exit 78; a writer killed leaves the file to the next one, chain intact', async () => {
    const file = join(dir, 'audit.jsonl')
    const first = await startServer(auditedBy(file))
    const before = await post(first.url, '/tasks/send', taskFor('echo', 'one'))
    expect(before.body.status.state).toBe('completed')

    // It waits for the lock to go stale (about 11 s), then gives up.
    const second = spawnServer({ HOST: '127.0.0.1', PORT: '0', ...auditedBy(file) })
    expect(await exited(second.child, 20_000)).toEqual({ code: 78, signal: null })
    expect(second.stderr()).toContain(
      `AUDIT_FILE: cannot open "${file}": another process writes it (its lock ${file}.lock is live): two writers would fork its hash chain. Give each process its own AUDIT_FILE, or use AUDIT_SINK=redis for several processes`,
    )
    expect(first.child.exitCode).toBe(null)

    first.child.kill('SIGKILL')
    await exited(first.child, 5_000)
    const third = await startServer(auditedBy(file))
    const after = await post(third.url, '/tasks/send', taskFor('echo', 'two'))
    expect(after.body.status.state).toBe('completed')
    third.child.kill('SIGTERM')
    expect(await exited(third.child, 10_000)).toEqual({ code: 0, signal: null })

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
