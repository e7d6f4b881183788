/**
 * INPUT_TIMEOUT_SECONDS with two real processes on one Redis, both looking for overdue waits
 * every second: a task left waiting fails once, by one of them, with one audit record, and its
 * entry leaves the set of waiting tasks.
 */
import { describe, expect, it } from 'vitest'
import { readAuditStream } from '../../src/audit/read.js'
import { useCluster, waitFor } from './cluster.js'
import { get, post, taskFor } from './requests.js'

const cluster = useCluster({ INPUT_TIMEOUT_SECONDS: '1' })

describe('tasks left waiting, across processes', () => {
  it('fail once, whichever process finds them first', async () => {
    const [a, b] = await Promise.all([cluster.start('a'), cluster.start('b')])
    const task = taskFor('ask')
    expect((await post(a.url, '/tasks/send', task)).body.status.state).toBe('input-required')

    const failed = await waitFor('the wait to end', async () => {
      const { body } = await get(b.url, `/tasks/${task.id}`)
      return body.status.state === 'input-required' ? undefined : body
    })
    expect(failed.status).toMatchObject({
      state: 'failed',
      message: { parts: [{ text: 'No answer came within 1 s; the task is closed' }] },
    })
    expect(failed.statusHistory.map((status: { state: string }) => status.state)).toEqual([
      'submitted',
      'working',
      'input-required',
      'failed',
    ])
    // Both processes keep looking: still one failure, one record of it, no entry left.
    await new Promise((resolve) => setTimeout(resolve, 2500))
    const { records } = await readAuditStream(cluster.redis(), cluster.prefix())
    const failures = (records as { taskId?: string; outcome?: string }[]).filter(
      (record) => record.taskId === task.id && record.outcome === 'failed',
    )
    expect(failures).toHaveLength(1)
    expect(failures[0]).not.toHaveProperty('requestId')
    expect(await cluster.redis().zcard(`${cluster.prefix()}tasks:{idx}:waiting`)).toBe(0)
  }, 60_000)
})
