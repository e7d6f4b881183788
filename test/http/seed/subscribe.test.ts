import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { listening, testApp } from '../../helpers/app.js'
import { sendBody } from '../../helpers/bodies.js'
import { authHeaders } from '../../helpers/auth.js'
import { openStream, readAll, sendSubscribe } from '../../helpers/sse.js'
import { askSkill, chunkSkill, slowSkill } from '../../helpers/skills.js'
import { echoSkill } from '../../../src/skills/echo/index.js'

describe('POST /tasks/sendSubscribe (SSE over real HTTP)', () => {
  let app: FastifyInstance
  afterEach(() => app.close())

  it('streams the task from submitted to completed, the last frame final', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const base = await listening(app)
    const body = sendBody('hello stream')
    const response = await sendSubscribe(base, body)
    expect(response.status).toBe(200)
    // UTF-8 said aloud: clients that read text/* without a charset as Latin-1 garble the rest.
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    const { frames } = await readAll(response)
    const tasks = frames.map((frame) => JSON.parse(frame.data))
    expect(tasks.map((t) => t.status.state)).toEqual([
      'submitted',
      'working',
      'working',
      'completed',
    ])
    expect(tasks.map((t) => t.final)).toEqual([false, false, false, true])
    expect(frames.every((frame) => /^\d+$/.test(frame.id ?? ''))).toBe(true)
    expect(tasks.every((t) => t.id === body.id)).toBe(true)
    expect(tasks.at(-1)).toMatchObject({
      status: {
        state: 'completed',
        message: { role: 'agent', parts: [{ type: 'text', text: 'hello stream' }] },
      },
      artifacts: [{ name: 'echo', index: 0, parts: [{ type: 'text', text: 'hello stream' }] }],
    })
  })

  it('shows artifact chunks as they arrive, each frame the whole task so far', async () => {
    app = await testApp({}, { skills: [chunkSkill] })
    const base = await listening(app)
    const { frames } = await readAll(await sendSubscribe(base, sendBody('go')))
    const texts = frames
      .map((frame) => JSON.parse(frame.data))
      .map((t) => t.artifacts[0]?.parts.map((p: { text: string }) => p.text).join('') ?? '')
    expect(texts).toEqual(['', '', 'one ', 'one two ', 'one two three', 'one two three'])
  })

  it('ends the stream at input-required with final: true', async () => {
    app = await testApp({}, { skills: [askSkill] })
    const base = await listening(app)
    const { frames } = await readAll(await sendSubscribe(base, sendBody('paint')))
    const last = JSON.parse(frames.at(-1)!.data)
    expect(last).toMatchObject({ final: true, status: { state: 'input-required' } })
  })

  it('replays an answered input-required as not final, and goes on to the current state', async () => {
    app = await testApp({}, { skills: [askSkill] })
    const base = await listening(app)
    const body = sendBody('paint')
    const first = await readAll(await sendSubscribe(base, body))
    expect(JSON.parse(first.frames.at(-1)!.data).final).toBe(true)
    const answered = await app.inject({
      method: 'POST',
      url: `/tasks/${body.id}/send`,
      payload: { message: { role: 'user', parts: [{ type: 'text', text: 'blue' }] } },
    })
    expect(answered.json().status.state).toBe('completed')

    // The same request again (a retry, or a resume after the wait): one final frame, the last.
    for (const options of [{}, { lastEventId: first.frames[0]!.id! }]) {
      const again = await readAll(await sendSubscribe(base, body, options))
      const tasks = again.frames.map((frame) => JSON.parse(frame.data))
      expect(tasks.map((t) => t.final).filter(Boolean)).toHaveLength(1)
      expect(tasks.at(-1)).toMatchObject({ final: true, status: { state: 'completed' } })
      expect(tasks.map((t) => t.status.state)).toContain('input-required')
    }
  })

  it('resumes after Last-Event-ID without loss or duplicates', async () => {
    app = await testApp({}, { skills: [chunkSkill] })
    const base = await listening(app)
    const body = sendBody('go')
    const full = await readAll(await sendSubscribe(base, body))
    const ids = full.frames.map((frame) => frame.id)
    // A client that saw the first two frames reconnects with the same request.
    const resumed = await readAll(await sendSubscribe(base, body, { lastEventId: ids[1]! }))
    expect(resumed.frames.map((frame) => frame.id)).toEqual(ids.slice(2))
    expect(resumed.frames.map((frame) => frame.data)).toEqual(
      full.frames.slice(2).map((f) => f.data),
    )
  })

  it('answers a resume of a task it does not have with 404, and creates no task', async () => {
    app = await testApp()
    const base = await listening(app)
    const body = sendBody('hello again')
    const response = await sendSubscribe(base, body, { lastEventId: '3' })
    expect(response.status).toBe(404)
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(await response.json()).toMatchObject({ error: { code: 'TASK_NOT_FOUND' } })
    const read = await app.inject({ url: `/tasks/${body.id}`, headers: authHeaders() })
    expect(read.statusCode).toBe(404)
  })

  it('resumes a live stream dropped mid-task and receives the rest', async () => {
    app = await testApp({}, { skills: [slowSkill(300)] })
    const base = await listening(app)
    const body = sendBody('slow')
    const first = await openStream(`${base}/tasks/sendSubscribe`, body)
    const seen: string[] = []
    for await (const frame of first.frames) {
      seen.push(frame.id!)
      if (JSON.parse(frame.data).status.message) break // the "started" progress frame
    }
    first.request.destroy()
    const rest = await readAll(await sendSubscribe(base, body, { lastEventId: seen.at(-1)! }))
    const states = rest.frames.map((frame) => JSON.parse(frame.data).status.state)
    expect(states).toEqual(['completed'])
    expect(rest.frames[0]!.id).toBe(String(Number(seen.at(-1)) + 1))
  })

  it('keeps an idle stream open with comment heartbeats', async () => {
    app = await testApp({ SSE_HEARTBEAT_MS: '100' }, { skills: [slowSkill(450)] })
    const base = await listening(app)
    const { comments, frames } = await readAll(await sendSubscribe(base, sendBody('wait')))
    expect(comments.filter((c) => c === 'heartbeat').length).toBeGreaterThanOrEqual(2)
    expect(JSON.parse(frames.at(-1)!.data).status.state).toBe('completed')
  })

  it('answers a bad request with a JSON error, not a stream', async () => {
    app = await testApp()
    const base = await listening(app)
    const response = await sendSubscribe(base, { id: 'nope', message: {} })
    expect(response.status).toBe(400)
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    const body = (await response.json()) as { error: { code: string } }
    expect(body.error.code).toBe('INVALID_REQUEST')
  })

  it('stops following when the client goes away', async () => {
    app = await testApp({ SHUTDOWN_GRACE_MS: '50' }, { skills: [slowSkill()] })
    const base = await listening(app)
    const stream = await openStream(`${base}/tasks/sendSubscribe`, sendBody('forever'))
    await stream.frames.next()
    stream.request.destroy()
    await new Promise((resolve) => setTimeout(resolve, 100))
    const open = await new Promise<number>((resolve, reject) =>
      app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
    )
    expect(open).toBe(0)
    const started = Date.now()
    await app.close()
    expect(Date.now() - started).toBeLessThan(1_000)
  })
})
