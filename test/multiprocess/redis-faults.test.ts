/**
 * Issue #3, point 7: Redis faults. A private redis-server (persistence on) is stopped and started
 * again under a running server process: requests get a clear 503 in the dialect's format while
 * it is down, open streams end (and resume without loss once it is back), the process stays up,
 * and it serves again by itself once Redis is back, with every acknowledged task still there.
 * The shared Redis on 6379 is never touched.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { sendSubscribe, sseFrames } from '../helpers/sse.js'
import type { SseFrame } from '../helpers/sse.js'
import { useCluster, waitFor } from './cluster.js'
import { PrivateRedis, hasRedisServer } from '../helpers/private-redis.js'
import { get, post, taskFor } from './requests.js'

const { start, recorded, useRedis } = useCluster({ QUEUE_VISIBILITY_TIMEOUT_MS: '1000' })

let redis: PrivateRedis
beforeEach(async () => {
  if (!hasRedisServer) return
  redis = await PrivateRedis.start()
  useRedis(redis.url)
})
afterEach(async () => {
  await redis?.remove()
})

const UNAVAILABLE = {
  code: 'SERVICE_UNAVAILABLE',
  message: 'The task store is unavailable; try again shortly',
  retryAfterSeconds: 1,
  requestId: expect.any(String),
}

/** Times a request, so a test can check it failed fast rather than hung. */
async function timed<T>(request: () => Promise<T>): Promise<[T, number]> {
  const began = Date.now()
  const result = await request()
  return [result, Date.now() - began]
}

describe.skipIf(!hasRedisServer)('Redis faults', () => {
  it('answers 503 SERVICE_UNAVAILABLE while Redis is down, and serves again once it is back', async () => {
    const server = await start('A')
    const before = taskFor('echo', 'before')
    expect((await post(server.url, '/tasks/send', before)).status).toBe(200)

    await redis.stop()
    const [send, sendMs] = await timed(() => post(server.url, '/tasks/send', taskFor('echo')))
    expect(send).toEqual({ status: 503, body: { error: UNAVAILABLE } })
    expect(sendMs).toBeLessThan(1500)
    expect(await get(server.url, `/tasks/${before.id}`)).toEqual({
      status: 503,
      body: { error: UNAVAILABLE },
    })
    expect(await get(server.url, '/readyz')).toEqual({
      status: 503,
      body: { status: 'unavailable', unreachable: ['redis'] },
    })
    expect(await get(server.url, '/healthz')).toEqual({ status: 200, body: { status: 'ok' } })

    await redis.start()
    await waitFor('/readyz to say ready', async () =>
      (await get(server.url, '/readyz')).status === 200 ? true : undefined,
    )
    const after = await post(server.url, '/tasks/send', taskFor('echo', 'after'))
    expect(after.body.status.state).toBe('completed')
    expect(server.child.exitCode).toBeNull()
  })

  it('keeps every task it acknowledged across a Redis restart', async () => {
    const server = await start('A')
    const sent = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post(server.url, '/tasks/send', taskFor('echo', `${i}`)),
      ),
    )
    expect(sent.map((reply) => reply.status)).toEqual(Array(20).fill(200))

    await redis.stop()
    await redis.start()
    const read = await waitFor('the tasks to be readable again', async () => {
      const replies = await Promise.all(
        sent.map(({ body }) => get(server.url, `/tasks/${body.id}`)),
      )
      return replies.every((reply) => reply.status === 200) ? replies : undefined
    })
    expect(read.map((reply) => reply.body)).toEqual(sent.map((reply) => reply.body))
  })

  it('finishes a task whose outcome could not be written while Redis was down', async () => {
    const server = await start('A', { SEND_WAIT_MS: '0' })
    const task = taskFor('wait', 'finish after 300')
    await post(server.url, '/tasks/send', task)
    await waitFor('the skill to start', () => recorded(task.id).find((r) => r.event === 'start'))

    // The skill finishes while Redis is down: its outcome cannot be stored, so the turn stays
    // in the queue (persisted) and runs again once Redis is back.
    await redis.stop()
    await new Promise((resolve) => setTimeout(resolve, 600))
    await redis.start()

    const done = await waitFor('the task to complete', async () => {
      const reply = await get(server.url, `/tasks/${task.id}`)
      return reply.status === 200 && reply.body.status.state === 'completed' ? reply : undefined
    })
    expect(done.body.status.message.parts[0].text).toBe('finished after 300 ms')
    expect(recorded(task.id).filter((r) => r.event === 'start')).toHaveLength(2)
  })

  it('runs a turn that Redis restarts stopped again on its own worker, using no attempt', async () => {
    const server = await start('A', { SEND_WAIT_MS: '0', QUEUE_MAX_ATTEMPTS: '2' })
    const task = taskFor('wait', 'finish after 300')
    await post(server.url, '/tasks/send', task)
    const starts = () => recorded(task.id).filter((r) => r.event === 'start')

    // Twice, as in a rolling restart: each run finishes while Redis is down, so its outcome
    // cannot be stored. The worker is alive all along: that is no failed attempt.
    for (let run = 1; run <= 2; run++) {
      await waitFor(`run ${run} to start`, () => (starts().length >= run ? true : undefined))
      await redis.stop()
      await new Promise((resolve) => setTimeout(resolve, 600))
      await redis.start()
    }

    const ended = await waitFor('the task to end', async () => {
      const reply = await get(server.url, `/tasks/${task.id}`)
      return reply.status === 200 && reply.body.status.state !== 'working' ? reply : undefined
    })
    expect(ended.body.status).toMatchObject({
      state: 'completed',
      message: { parts: [{ text: 'finished after 300 ms' }] },
    })
    expect(starts().map((r) => r.pid)).toEqual([server.pid, server.pid, server.pid])
  })

  it('ends an open stream when Redis goes away; resumed once it is back, the stream loses nothing', async () => {
    const server = await start('A')
    const task = taskFor('wait', 'finish after 1500')
    const frames: SseFrame[] = []
    const state = (frame: SseFrame) => JSON.parse(frame.data) as { status: { state: string } }
    const first = await sendSubscribe(server.url, task)
    let told!: () => void
    const working = new Promise<void>((resolve) => (told = resolve))
    const ended = (async () => {
      try {
        for await (const frame of sseFrames(first)) {
          frames.push(frame)
          if (state(frame).status.state === 'working') told()
        }
      } catch {
        // A stream cut off mid-frame ends the same way for the client: it resumes.
      }
    })()
    await working

    await redis.stop()
    const [, endedMs] = await timed(() => ended)
    expect(endedMs).toBeLessThan(3000)
    const seen = frames.filter((frame) => frame.id !== undefined)
    expect(seen.map((frame) => state(frame).status.state)).not.toContain('completed')

    await redis.start()
    await waitFor('/readyz to say ready', async () =>
      (await get(server.url, '/readyz')).status === 200 ? true : undefined,
    )
    const rest: SseFrame[] = []
    for await (const frame of sseFrames(
      await sendSubscribe(server.url, task, { lastEventId: seen.at(-1)!.id! }),
    ))
      rest.push(frame)
    // Stream ids (`<ms>-<seq>`), each after the one before: nothing twice, nothing out of order.
    const ids = [...seen, ...rest].map((frame) => frame.id!.split('-').map(Number))
    expect(
      ids.every(([ms, seq], i) => {
        const [prevMs, prevSeq] = ids[i - 1] ?? [-1, -1]
        return ms! > prevMs! || (ms === prevMs && seq! > prevSeq!)
      }),
    ).toBe(true)
    expect(JSON.parse(rest.at(-1)!.data)).toMatchObject({
      status: { state: 'completed', message: { parts: [{ text: 'finished after 1500 ms' }] } },
      final: true,
    })
    expect(server.child.exitCode).toBeNull()
  })
})
