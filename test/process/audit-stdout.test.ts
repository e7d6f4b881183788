/**
 * The default audit sink of a server without Redis: JSON lines on stdout beside pino's log
 * lines, told apart by their fields, flushed at shutdown, and a valid chain.
 */
import { describe, expect, it } from 'vitest'
import { verifyChain } from '../../src/audit/verify.js'
import { post, taskFor } from '../multiprocess/requests.js'
import { exited, useServerProcesses } from '../helpers/server-process.js'

const { startServer } = useServerProcesses()

describe('the stdout audit sink', () => {
  it('writes audit lines that a reader tells apart from log lines', async () => {
    const server = await startServer({ LOG_LEVEL: 'info', BUNDLED_SKILLS: 'echo' })
    const reply = await post(server.url, '/tasks/send', taskFor('echo', 'hi'))
    expect(reply.body.status.state).toBe('completed')
    server.child.kill('SIGTERM')
    await exited(server.child, 10_000)
    const stdout = server.stdout()

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
