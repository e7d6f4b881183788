/**
 * Issue #3, point 6: work distribution. An API process enqueues turns, worker processes run
 * them; a turn whose worker dies is run again by another, and fails after QUEUE_MAX_ATTEMPTS;
 * a worker that shuts down hands its running turn over; a skill's own timeout fails its task.
 */
import { describe, expect, it } from 'vitest'
import { readAuditStream } from '../../src/audit/read.js'
import type { AuditRecord } from '../../src/audit/record.js'
import { TEST_CALLER, authHeaders } from '../helpers/auth.js'
import type { Server } from './cluster.js'
import { useCluster, waitFor } from './cluster.js'
import { get, post, taskFor } from './requests.js'

// Short visibility timeout so that reclaiming a dead worker's turn takes about a second.
const { start, recorded, redis, prefix } = useCluster({ QUEUE_VISIBILITY_TIMEOUT_MS: '1000' })

const starts = (records: { event: string; pid: number }[]) =>
  records.filter((r) => r.event === 'start').map((r) => r.pid)

describe('work queue: API processes enqueue, worker processes run the skills', () => {
  it('runs a turn sent to an API process on a worker, and the blocking send answers', async () => {
    const [api, worker] = await Promise.all([
      start('api', { ROLE: 'api' }),
      start('worker', { ROLE: 'worker' }),
    ])
    const task = taskFor('wait', 'finish after 50')
    const sent = await post(api.url, '/tasks/send', task)
    expect(sent.body.status).toMatchObject({ state: 'completed' })
    expect(starts(recorded(task.id))).toEqual([worker.pid])
  })

  it('counts each change once in the metrics: its creation on the API, its turn on the worker', async () => {
    const [api, worker] = await Promise.all([
      start('api', { ROLE: 'api' }),
      start('worker', { ROLE: 'worker' }),
    ])
    const task = taskFor('wait', 'finish after 10')
    expect((await post(api.url, '/tasks/send', task)).body.status).toMatchObject({
      state: 'completed',
    })

    const scrape = async (url: string) => (await fetch(`${url}/metrics`)).text()
    const [fromApi, fromWorker] = await Promise.all([scrape(api.url), scrape(worker.url)])
    expect(fromApi).toContain('a2a_tasks_created_total{skill="wait"} 1\n')
    expect(fromApi).not.toContain('a2a_task_status_updates_total{skill="wait"')
    expect(fromWorker).not.toContain('a2a_tasks_created_total{skill="wait"}')
    expect(fromWorker).toContain(
      'a2a_task_status_updates_total{skill="wait",state="completed"} 1\n',
    )
    expect(fromWorker).toContain(
      'a2a_task_duration_seconds_count{skill="wait",state="completed"} 1\n',
    )
    // The shared queue is reported by both; the turn has been acknowledged.
    for (const text of [fromApi, fromWorker]) expect(text).toMatch(/^a2a_queue_turns \d+$/m)
  })

  it('serves only the probes and the metrics on a worker process', async () => {
    const worker = await start('worker', { ROLE: 'worker' })
    // Live once it answers; ready once its Redis connections are up, a moment later under load.
    await waitFor('the worker to be ready', async () =>
      (await get(worker.url, '/readyz')).status === 200 ? true : undefined,
    )
    expect((await fetch(`${worker.url}/metrics`)).status).toBe(200)
    const card = await fetch(`${worker.url}/.well-known/agent.json`, { headers: authHeaders() })
    expect(card.status).toBe(404)
    // A path it does not serve is 404 without a token too: a wrong URL, not a token problem.
    expect((await fetch(`${worker.url}/.well-known/agent.json`)).status).toBe(404)
  })

  it('runs the turn of a worker killed mid-task again on another worker, to completion', async () => {
    const [api, ...workers] = await Promise.all([
      start('api', { ROLE: 'api', SEND_WAIT_MS: '0' }),
      start('worker 1', { ROLE: 'worker' }),
      start('worker 2', { ROLE: 'worker' }),
    ])
    const task = taskFor('wait', 'finish on attempt 2')
    expect((await post(api.url, '/tasks/send', { ...task })).status).toBe(200)
    const victim = await firstRunner(task.id, workers)
    victim.child.kill('SIGKILL')
    await victim.exited

    const done = await waitFor('the task to complete', async () => {
      const { body } = await get(api.url, `/tasks/${task.id}`)
      // Submitted too: a worker killed before its first write leaves the task as it found it.
      return ['submitted', 'working'].includes(body.status.state) ? undefined : body
    })
    expect(done.status).toMatchObject({
      state: 'completed',
      message: { parts: [{ text: 'finished on attempt 2' }] },
    })
    const survivor = workers.find((worker) => worker !== victim)!
    expect(starts(recorded(task.id))).toEqual([victim.pid, survivor.pid])
  })

  it('leaves a slow but live turn to its worker, past the visibility timeout', async () => {
    const env = { ROLE: 'worker', QUEUE_VISIBILITY_TIMEOUT_MS: '600' }
    const [api] = await Promise.all([
      start('api', { ROLE: 'api' }),
      start('worker 1', env),
      start('worker 2', env),
    ])
    // Three visibility timeouts long: only the heartbeat keeps the other worker from taking it.
    const task = taskFor('wait', 'finish after 1800')
    const sent = await post(api.url, '/tasks/send', task)
    expect(sent.body.status.state).toBe('completed')
    expect(starts(recorded(task.id))).toHaveLength(1)
  })

  it('fails a task after QUEUE_MAX_ATTEMPTS workers died on it, saying why', async () => {
    const env = { ROLE: 'worker', QUEUE_MAX_ATTEMPTS: '2' }
    const [api, ...workers] = await Promise.all([
      start('api', { ROLE: 'api', SEND_WAIT_MS: '0' }),
      start('worker 1', env),
      start('worker 2', env),
      start('worker 3', env),
    ])
    const task = taskFor('wait')
    await post(api.url, '/tasks/send', { ...task })
    for (let attempt = 1; attempt <= 2; attempt++) {
      const pids = await waitFor(`attempt ${attempt}`, () => {
        const pids = starts(recorded(task.id))
        return pids.length >= attempt ? pids : undefined
      })
      const victim = workers.find((worker) => worker.pid === pids[attempt - 1])!
      victim.child.kill('SIGKILL')
      await victim.exited
    }

    const failed = await waitFor('the task to fail', async () => {
      const { body } = await get(api.url, `/tasks/${task.id}`)
      // Submitted too: a worker killed before its first write leaves the task as it found it.
      return ['submitted', 'working'].includes(body.status.state) ? undefined : body
    })
    expect(failed.status).toMatchObject({
      state: 'failed',
      message: {
        parts: [{ text: 'The task failed after 2 attempts: its worker stopped responding' }],
      },
    })
    expect(starts(recorded(task.id))).toHaveLength(2)
    // Nothing of the turn is left in the queue: the worker takes it off once the failure is
    // stored, so a reader may see the failed task a moment before.
    await waitFor('the turn to leave the queue', async () =>
      (await redis().xlen(`${prefix()}queue:{turns}`)) === 0 ? true : undefined,
    )
    // The audit log has the failure, made by no request.
    const failure = await waitFor('the failure in the audit log', async () => {
      const { records } = await readAuditStream(redis(), prefix())
      return (records as AuditRecord[]).find(
        (record) => record.taskId === task.id && record.outcome === 'failed',
      )
    })
    expect(failure).toMatchObject({ event: 'state-change', details: { final: true } })
    expect(failure).not.toHaveProperty('requestId')
  })

  it("frees the caller's running-task slot of a task failed after QUEUE_MAX_ATTEMPTS", async () => {
    const env = { ROLE: 'worker', QUEUE_MAX_ATTEMPTS: '1' }
    const [api, victim] = await Promise.all([
      start('api', { ROLE: 'api', SEND_WAIT_MS: '0', MAX_ACTIVE_TASKS_PER_CALLER: '1' }),
      start('worker 1', env),
    ])
    const task = taskFor('wait')
    expect((await post(api.url, '/tasks/send', task)).status).toBe(200)
    await firstRunner(task.id, [victim])
    // The caller's one slot is taken while the task runs.
    expect((await post(api.url, '/tasks/send', taskFor('echo'))).body).toMatchObject({
      error: { code: 'ACTIVE_TASK_LIMIT', limit: 1 },
    })
    victim.child.kill('SIGKILL')
    await victim.exited

    await start('worker 2', env)
    await waitFor('the task to fail', async () => {
      const { body } = await get(api.url, `/tasks/${task.id}`)
      return body.status.state === 'failed' ? body : undefined
    })
    // The worker frees the slot right after storing the failure.
    const leases = `${prefix()}active:{${TEST_CALLER.sub}}`
    await waitFor('the slot to be freed', async () =>
      (await redis().zcard(leases)) === 0 ? true : undefined,
    )
    // Admitted: worker 2 may have run it before the answer left (SEND_WAIT_MS is 0).
    const next = await post(api.url, '/tasks/send', taskFor('echo'))
    expect(next.status).toBe(200)
    expect(['submitted', 'working', 'completed']).toContain(next.body.status.state)
  })

  it('runs a lost turn when the send is retried, and never queues a second one', async () => {
    // No worker yet: the turns stay queued. The retries go to another API process, as behind
    // a load balancer (the first one still waits for the turns it dispatched).
    const [api, other] = await Promise.all([
      start('api', { ROLE: 'api', SEND_WAIT_MS: '0' }),
      start('other api', { ROLE: 'api', SEND_WAIT_MS: '0' }),
    ])
    const lost = taskFor('wait', 'finish after 10')
    const queued = taskFor('wait', 'finish after 10')
    for (const task of [lost, queued]) {
      expect((await post(api.url, '/tasks/send', task)).body.status.state).toBe('submitted')
    }
    const stream = `${prefix()}queue:{turns}`
    const entries = await redis().xrange(stream, '-', '+')
    expect(entries).toHaveLength(2)
    // What a send leaves when Redis goes away between writing the task and queueing its turn:
    // the task, submitted, and no turn. (Dated back past the grace in which a retry assumes
    // the first attempt may still be queueing it.)
    const [lostEntry] = entries.filter(([, fields]) => fields.includes(lost.id))
    await redis().xdel(stream, lostEntry![0])
    const aMinuteAgo = new Date(Date.now() - 60_000).toISOString()
    for (const task of [lost, queued]) {
      await redis().hset(`${prefix()}task:{${task.id}}`, 'updatedAt', aMinuteAgo)
    }

    // The retries: the lost turn is queued again, the queued one is left alone.
    for (const task of [lost, queued]) {
      expect((await post(other.url, '/tasks/send', task)).body.status.state).toBe('submitted')
    }
    expect(await redis().xlen(stream)).toBe(2)

    const worker = await start('worker', { ROLE: 'worker' })
    for (const task of [lost, queued]) {
      const done = await waitFor(`${task.id} to complete`, async () => {
        const { body } = await get(api.url, `/tasks/${task.id}`)
        return body.status.state === 'completed' ? body : undefined
      })
      expect(done.status.state).toBe('completed')
      expect(starts(recorded(task.id))).toEqual([worker.pid])
    }
  })

  it('runs a lost turn when a continuation is retried, instead of refusing the retry', async () => {
    const [api, other, first] = await Promise.all([
      start('api', { ROLE: 'api', SEND_WAIT_MS: '0' }),
      start('other api', { ROLE: 'api', SEND_WAIT_MS: '0' }),
      start('worker 1', { ROLE: 'worker' }),
    ])
    const task = taskFor('ask', 'paint the fence')
    await post(api.url, '/tasks/send', task)
    await waitFor('the question', async () => {
      const { body } = await get(api.url, `/tasks/${task.id}`)
      return body.status.state === 'input-required' || undefined
    })
    first.child.kill('SIGTERM')
    await first.exited

    // The answer is written and its turn queued; then the turn is lost, as when Redis goes away
    // between the two (the client got a 503), and the retry comes after the grace.
    const answer = { message: { role: 'user', parts: [{ type: 'text', text: 'green' }] } }
    const sent = await post(api.url, `/tasks/${task.id}/send`, answer)
    expect(sent.body.status.state).toBe('working')
    const stream = `${prefix()}queue:{turns}`
    const [entry] = await redis().xrange(stream, '-', '+')
    await redis().xdel(stream, entry![0])
    const aMinuteAgo = new Date(Date.now() - 60_000).toISOString()
    await redis().hset(`${prefix()}task:{${task.id}}`, 'updatedAt', aMinuteAgo)

    const retried = await post(other.url, `/tasks/${task.id}/send`, answer)
    expect(retried).toMatchObject({ status: 200, body: { status: { state: 'working' } } })
    expect(await redis().xlen(stream)).toBe(1)
    // A message the task has not taken is still refused.
    const blue = { message: { role: 'user', parts: [{ type: 'text', text: 'blue' }] } }
    expect(await post(other.url, `/tasks/${task.id}/send`, blue)).toMatchObject({
      status: 409,
      body: { error: { code: 'INVALID_TASK_STATE', state: 'working' } },
    })

    await start('worker 2', { ROLE: 'worker' })
    const done = await waitFor('the task to complete', async () => {
      const { body } = await get(api.url, `/tasks/${task.id}`)
      return body.status.state === 'completed' ? body : undefined
    })
    expect(done.status.message.parts).toEqual([{ type: 'text', text: 'colour: green' }])
    expect(recorded(task.id).filter((r) => r.event === 'answer')).toHaveLength(1)
  })

  it('hands the running turn of a worker that shuts down to another worker', async () => {
    const [api, ...workers] = await Promise.all([
      start('api', { ROLE: 'api', SEND_WAIT_MS: '0' }),
      start('worker 1', { ROLE: 'worker', SHUTDOWN_GRACE_MS: '100' }),
      start('worker 2', { ROLE: 'worker', SHUTDOWN_GRACE_MS: '100' }),
    ])
    const task = taskFor('wait', 'finish on attempt 2')
    await post(api.url, '/tasks/send', { ...task })
    const leaving = await firstRunner(task.id, workers)
    leaving.child.kill('SIGTERM')
    expect(await leaving.exited).toEqual({ code: 0, signal: null })

    const done = await waitFor(
      'the task to complete',
      async () => {
        const { body } = await get(api.url, `/tasks/${task.id}`)
        return body.status.state === 'working' ? undefined : body
      },
      // Handed over at once, not after the visibility timeout.
      900,
    )
    expect(done.status.state).toBe('completed')
    expect(recorded(task.id).filter((r) => r.event === 'abort')).toMatchObject([
      { pid: leaving.pid, reason: 'released' },
    ])
  })

  it('keeps a turn that drains within the grace period, past the visibility timeout', async () => {
    const env = { ROLE: 'worker', QUEUE_VISIBILITY_TIMEOUT_MS: '600', SHUTDOWN_GRACE_MS: '5000' }
    const [api, ...workers] = await Promise.all([
      start('api', { ROLE: 'api', SEND_WAIT_MS: '0' }),
      start('worker 1', env),
      start('worker 2', env),
    ])
    // Finishes three visibility timeouts after the SIGTERM, well within the grace period.
    const task = taskFor('wait', 'finish after 2400')
    await post(api.url, '/tasks/send', { ...task })
    const leaving = await firstRunner(task.id, workers)
    leaving.child.kill('SIGTERM')
    expect(await leaving.exited).toEqual({ code: 0, signal: null })

    const { body } = await get(api.url, `/tasks/${task.id}`)
    expect(body.status).toMatchObject({ state: 'completed' })
    // Run once, by the worker that was leaving: no other worker took it while it drained.
    expect(starts(recorded(task.id))).toEqual([leaving.pid])
  })

  it('runs at most WORKER_CONCURRENCY turns at once on a process that queues and runs them', async () => {
    // Each send's process takes its turn as it queues it when it has a free slot; the turns it
    // has no slot for wait in the queue for its worker's read.
    const server = await start('all', { WORKER_CONCURRENCY: '2' })
    const tasks = Array.from({ length: 5 }, () => taskFor('wait', 'finish after 300'))
    const sent = await Promise.all(tasks.map((task) => post(server.url, '/tasks/send', task)))
    expect(sent.map(({ body }) => body.status.state)).toEqual(Array(5).fill('completed'))
    // From each task's transitions: when its turn ran (working) and ended (completed).
    const spans = sent.map(({ body }) => {
      const at = (state: string) =>
        Date.parse(body.statusHistory.find((s: { state: string }) => s.state === state).timestamp)
      return { from: at('working'), to: at('completed') }
    })
    const mostAtOnce = Math.max(
      ...spans.map(({ from }) => spans.filter((s) => s.from <= from && from < s.to).length),
    )
    expect(mostAtOnce).toBe(2)
    expect(tasks.flatMap((task) => starts(recorded(task.id)))).toEqual(Array(5).fill(server.pid))
  })

  it('fails a task whose skill runs past its own timeoutMs', async () => {
    const server = await start('all')
    const task = taskFor('deadline')
    const sent = await post(server.url, '/tasks/send', task)
    expect(sent.body.status).toMatchObject({
      state: 'failed',
      message: { parts: [{ text: 'The task timed out after 300 ms' }] },
    })
    expect(recorded(task.id).find((r) => r.event === 'abort')).toMatchObject({ reason: 'timeout' })
  })
})

const nonEmpty = <T>(items: T[]): T[] | undefined => (items.length > 0 ? items : undefined)

/** The worker that runs the task's first attempt, once it has started it. */
async function firstRunner(taskId: string, workers: Server[]): Promise<Server> {
  const [first] = await waitFor('the first attempt', () => nonEmpty(starts(recorded(taskId))))
  return workers.find((worker) => worker.pid === first)!
}
