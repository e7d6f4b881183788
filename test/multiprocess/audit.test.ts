/**
 * Two real server processes on one Redis, sending concurrently: every record of both lands on
 * the one shared audit stream as a single linear chain (the append script's compare-and-set).
 */
import { describe, expect, it } from 'vitest'
import { readAuditStream } from '../../src/audit/read.js'
import { run } from '../../src/cli/commands/audit.js'
import { useCluster, waitFor } from './cluster.js'
import { post, taskFor } from './requests.js'

const cluster = useCluster()

describe('the audit trail across processes on one Redis', () => {
  it('keeps one linear chain while two processes append concurrently', async () => {
    const [a, b] = await Promise.all([cluster.start('a'), cluster.start('b')])
    const perServer = 25
    const sends = [a, b].flatMap((server) =>
      Array.from({ length: perServer }, () =>
        post(server.url, '/tasks/send', taskFor('echo', 'hi')),
      ),
    )
    const replies = await Promise.all(sends)
    for (const reply of replies) expect(reply.body.status.state).toBe('completed')
    const expected = replies.length * 4 // received, working, artifact, completed

    const { records, head } = await waitFor('every audit record', async () => {
      const trail = await readAuditStream(cluster.redis(), cluster.prefix())
      return trail.records.length >= expected ? trail : undefined
    })
    expect(records).toHaveLength(expected)
    expect(head?.seq).toBe(expected)
    expect(records.map((record: any) => record.seq)).toEqual(
      Array.from({ length: expected }, (_, n) => n + 1),
    )
    const taskIds = new Set(records.map((record: any) => record.taskId))
    for (const reply of replies) expect(taskIds.has(reply.body.id)).toBe(true)
    // A turn taken from the queue carries the request that started it: each task's records,
    // whichever process wrote them, name the one request of its send.
    for (const taskId of taskIds) {
      const requestIds = new Set(
        records.filter((record: any) => record.taskId === taskId).map((r: any) => r.requestId),
      )
      expect([...requestIds]).toEqual([expect.any(String)])
    }

    let out = ''
    const code = await run(['verify', '--redis', redisUrl(), '--prefix', cluster.prefix()], {
      out: { write: (chunk: string) => ((out += chunk), true) },
      err: { write: () => true },
    })
    expect(out).toContain(`${expected} records, chain intact from the first record`)
    expect(code).toBe(0)
  }, 60_000)
})

const redisUrl = () => process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
