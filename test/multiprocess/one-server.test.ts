/**
 * Issue #3, point 5: server processes on one Redis act as one server. A task sent to process A
 * is read, streamed (and resumed), continued and canceled through process B.
 */
import { describe, expect, it } from 'vitest'
import { sendSubscribe, sseFrames } from '../helpers/sse.js'
import type { SseFrame } from '../helpers/sse.js'
import { useCluster, waitFor } from './cluster.js'
import { get, post, taskFor } from './requests.js'

const { start, recorded } = useCluster()

/** Opens /tasks/sendSubscribe and reads frames until `stopAfter` of them, or the stream's end. */
async function subscribe(
  url: string,
  body: unknown,
  { lastEventId, stopAfter = Infinity }: { lastEventId?: string; stopAfter?: number } = {},
): Promise<SseFrame[]> {
  const closed = new AbortController()
  const response = await sendSubscribe(url, body, {
    ...(lastEventId !== undefined && { lastEventId }),
    signal: closed.signal,
  })
  expect(response.status).toBe(200)
  const frames: SseFrame[] = []
  for await (const frame of sseFrames(response)) {
    frames.push(frame)
    if (frames.length >= stopAfter) break
  }
  closed.abort()
  return frames
}

const statusText = (frame: SseFrame): string | undefined =>
  (JSON.parse(frame.data) as { status: { message?: { parts: { text?: string }[] } } }).status
    .message?.parts[0]?.text

describe('several server processes on one Redis act as one server', () => {
  it('reads through B the task sent to A', async () => {
    const [a, b] = await Promise.all([start('A'), start('B', { ROLE: 'api' })])
    const task = taskFor('echo', 'hello')
    const sent = await post(a.url, '/tasks/send', task)
    expect(sent.body.status.state).toBe('completed')
    expect(await get(b.url, `/tasks/${task.id}`)).toEqual({ status: 200, body: sent.body })
  })

  it('resumes on B, from the Last-Event-ID, a stream opened on A: every event once, in order', async () => {
    const [a, b] = await Promise.all([start('A'), start('B', { ROLE: 'api' })])
    const task = taskFor('steps', '4')
    const first = await subscribe(a.url, task, { stopAfter: 3 })
    const rest = await subscribe(b.url, task, { lastEventId: first.at(-1)!.id! })

    const frames = [...first, ...rest]
    const ids = frames.map((frame) => frame.id!)
    expect(ids.every((id, i) => i === 0 || streamIdAfter(id, ids[i - 1]!))).toBe(true)
    expect(frames.map(statusText).filter((text) => text?.startsWith('step'))).toEqual([
      'step 1',
      'step 2',
      'step 3',
      'step 4',
    ])
    expect(JSON.parse(rest.at(-1)!.data)).toMatchObject({
      status: { state: 'completed' },
      final: true,
    })
  })

  it('ends its open streams when A shuts down, and the client resumes on B', async () => {
    // B is the only worker: the task runs on after A has gone.
    const [a, b] = await Promise.all([
      start('A', { ROLE: 'api', SHUTDOWN_GRACE_MS: '200' }),
      start('B'),
    ])
    const task = taskFor('wait', 'finish after 3000')
    const response = await sendSubscribe(a.url, task)
    const first: SseFrame[] = []
    const stopping = (async () => {
      for await (const frame of sseFrames(response)) {
        first.push(frame)
        // The skill's progress: the turn runs on B; now A is told to stop.
        if (statusText(frame) === 'waiting') a.child.kill('SIGTERM')
      }
      return Date.now()
    })()
    const ended = await stopping
    expect(await a.exited).toEqual({ code: 0, signal: null })
    // A left before the task ended: its stream ended then, not with the task.
    expect(first.map((frame) => JSON.parse(frame.data).status.state)).toEqual([
      'submitted',
      'working',
      'working',
    ])
    expect(ended - Date.parse(JSON.parse(first.at(-1)!.data).status.timestamp)).toBeLessThan(2500)

    const rest = await subscribe(b.url, task, { lastEventId: first.at(-1)!.id! })
    expect(rest.map((frame) => JSON.parse(frame.data))).toMatchObject([
      { status: { state: 'completed' }, final: true },
    ])
  })

  it('holds a caller to one cap on running tasks across processes', async () => {
    const env = { MAX_ACTIVE_TASKS_PER_CALLER: '1', SEND_WAIT_MS: '0' }
    const [a, b] = await Promise.all([start('A', env), start('B', env)])
    const running = taskFor('wait')
    expect((await post(a.url, '/tasks/send', running)).status).toBe(200)
    const refused = await post(b.url, '/tasks/send', taskFor('echo', 'hello'))
    expect(refused.status).toBe(429)
    expect(refused.body.error).toMatchObject({ code: 'ACTIVE_TASK_LIMIT', limit: 1 })

    await post(b.url, `/tasks/${running.id}/cancel`)
    expect((await post(b.url, '/tasks/send', taskFor('echo', 'hello'))).status).toBe(200)
  })

  it('continues through B the input-required task sent to A', async () => {
    const [a, b] = await Promise.all([start('A'), start('B', { ROLE: 'api' })])
    const task = taskFor('ask')
    const asked = await post(a.url, '/tasks/send', task)
    expect(asked.body.status.state).toBe('input-required')

    const answered = await post(b.url, `/tasks/${task.id}/send`, {
      message: { role: 'user', parts: [{ type: 'text', text: 'blue' }] },
    })
    expect(answered.status).toBe(200)
    expect(answered.body.status).toMatchObject({
      state: 'completed',
      message: { parts: [{ type: 'text', text: 'colour: blue' }] },
    })
  })

  it('cancels through B the skill running in A, which sees the abort within 250 ms', async () => {
    const [a, b] = await Promise.all([start('A'), start('B', { ROLE: 'api' })])
    const task = taskFor('wait')
    const blockingSend = post(a.url, '/tasks/send', task)
    const started = await waitFor('the skill to start', () =>
      recorded(task.id).find((r) => r.event === 'start'),
    )
    expect(started.pid).toBe(a.pid)

    const canceledAt = Date.now()
    const canceled = await post(b.url, `/tasks/${task.id}/cancel`)
    expect(canceled.status).toBe(200)
    expect(canceled.body.status.state).toBe('canceled')
    const aborted = await waitFor('the skill to see the abort', () =>
      recorded(task.id).find((r) => r.event === 'abort'),
    )
    expect(aborted).toMatchObject({ pid: a.pid, reason: 'canceled' })
    expect(aborted.at - canceledAt).toBeLessThan(250)
    console.log(
      `cross-process cancel: the skill saw it ${aborted.at - canceledAt} ms after the request`,
    )
    expect((await blockingSend).body.status.state).toBe('canceled')
  })
})

/** Redis stream ids `<ms>-<seq>` in order. */
function streamIdAfter(id: string, previous: string): boolean {
  const [ms, seq] = id.split('-').map(BigInt) as [bigint, bigint]
  const [pms, pseq] = previous.split('-').map(BigInt) as [bigint, bigint]
  return ms > pms || (ms === pms && seq > pseq)
}
