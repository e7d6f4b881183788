/** Streaming JSON-RPC methods over real HTTP: 1.0 closes the stream, 0.3 marks `final`. */
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { echoSkill } from '../../../src/skills/echo/index.js'
import { listening, testApp } from '../../helpers/app.js'
import { authHeaders } from '../../helpers/auth.js'
import { JSON_RPC, v03Message, v10Message } from '../../helpers/jsonrpc.js'
import { askSkill, chunkSkill, slowSkill } from '../../helpers/skills.js'
import { readAll, sseFrames } from '../../helpers/sse.js'

const call = (base: string, method: string, params: unknown, version: string | null = '1.0') =>
  fetch(`${base}${JSON_RPC}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...authHeaders(),
      ...(version && { 'a2a-version': version }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 4, method, params }),
  })

const results = async (response: Response) =>
  (await readAll(response)).frames.map((frame) => JSON.parse(frame.data))

describe('JSON-RPC streaming (§3.1.2, §3.1.6)', () => {
  let app: FastifyInstance
  afterEach(() => app.close())

  it('SendStreamingMessage: the task first, then its events, then the stream closes', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const base = await listening(app)
    const response = await call(base, 'SendStreamingMessage', { message: v10Message('stream me') })
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const frames = await results(response)
    expect(frames.every((f) => f.jsonrpc === '2.0' && f.id === 4)).toBe(true)
    const kinds = frames.map((f) => Object.keys(f.result)[0])
    expect(kinds).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'statusUpdate'])
    expect(frames[0].result.task.status.state).toBe('TASK_STATE_SUBMITTED')
    expect(frames.at(-1).result.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED')
    expect(frames.at(-1).result.statusUpdate).not.toHaveProperty('final')
  })

  it('streams artifact chunks with append and lastChunk', async () => {
    app = await testApp({}, { skills: [chunkSkill] })
    const base = await listening(app)
    const frames = await results(
      await call(base, 'SendStreamingMessage', { message: v10Message('go') }),
    )
    const chunks = frames.filter((f) => f.result.artifactUpdate).map((f) => f.result.artifactUpdate)
    expect(chunks.map((c) => [c.append ?? false, c.lastChunk ?? false])).toEqual([
      [false, false],
      [true, false],
      [true, true],
    ])
  })

  it('closes the stream at input-required', async () => {
    app = await testApp({}, { skills: [askSkill] })
    const base = await listening(app)
    const frames = await results(
      await call(base, 'SendStreamingMessage', { message: v10Message('paint') }),
    )
    expect(frames.at(-1).result.statusUpdate.status.state).toBe('TASK_STATE_INPUT_REQUIRED')
  })

  it('answers an error before the stream starts as plain JSON', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const base = await listening(app)
    const response = await call(base, 'SendStreamingMessage', {
      message: v10Message('hi', { taskId: 'does-not-exist' }),
    })
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    expect(((await response.json()) as any).error.code).toBe(-32001)
  })

  it('SubscribeToTask: the current task first, then live events until it ends', async () => {
    app = await testApp({}, { skills: [slowSkill(300)] })
    const base = await listening(app)
    const sent = await call(base, 'SendMessage', {
      message: v10Message('slow'),
      configuration: { returnImmediately: true },
    })
    const { id } = ((await sent.json()) as any).result.task
    const frames = await results(await call(base, 'SubscribeToTask', { id }))
    expect(frames[0].result.task.id).toBe(id)
    expect(frames.at(-1).result.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED')
  })

  it('SubscribeToTask on a terminal task is -32004, not a stream', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const base = await listening(app)
    const sent = await call(base, 'SendMessage', { message: v10Message('done') })
    const { id } = ((await sent.json()) as any).result.task
    const response = await call(base, 'SubscribeToTask', { id })
    expect(((await response.json()) as any).error).toMatchObject({
      code: -32004,
      message: `Task ${id} is completed; a terminal task has nothing more to stream (read it with GetTask)`,
    })
  })

  it('two subscribers of one task see the same events', async () => {
    app = await testApp({}, { skills: [slowSkill(300)] })
    const base = await listening(app)
    const sent = await call(base, 'SendMessage', {
      message: v10Message('slow'),
      configuration: { returnImmediately: true },
    })
    const { id } = ((await sent.json()) as any).result.task
    const [a, b] = await Promise.all([
      results(await call(base, 'SubscribeToTask', { id })),
      results(await call(base, 'SubscribeToTask', { id })),
    ])
    expect(a.at(-1)).toEqual(b.at(-1))
  })
})

describe('JSON-RPC 0.3 streaming', () => {
  let app: FastifyInstance
  afterEach(() => app.close())

  it('message/stream: bare results with kind, the last status update final', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const base = await listening(app)
    const frames = await results(
      await call(base, 'message/stream', { message: v03Message('v03') }, null),
    )
    expect(frames.map((f) => f.result.kind)).toEqual([
      'task',
      'status-update',
      'artifact-update',
      'status-update',
    ])
    expect(frames.map((f) => f.result.final)).toEqual([undefined, false, undefined, true])
  })

  it('tasks/resubscribe follows a running task to its final status', async () => {
    app = await testApp({}, { skills: [slowSkill(300)] })
    const base = await listening(app)
    const sent = await call(
      base,
      'message/send',
      { message: v03Message('slow'), configuration: { blocking: false } },
      null,
    )
    const { id } = ((await sent.json()) as any).result
    const response = await call(base, 'tasks/resubscribe', { id }, null)
    const frames: any[] = []
    for await (const frame of sseFrames(response)) frames.push(JSON.parse(frame.data))
    expect(frames[0].result).toMatchObject({ kind: 'task', id })
    expect(frames.at(-1).result).toMatchObject({
      kind: 'status-update',
      final: true,
      status: { state: 'completed' },
    })
  })

  it('tasks/resubscribe to a terminal task says to read it with tasks/get', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const base = await listening(app)
    const sent = await call(base, 'message/send', { message: v03Message('done') }, null)
    const { id } = ((await sent.json()) as any).result
    const response = await call(base, 'tasks/resubscribe', { id }, null)
    expect(((await response.json()) as any).error.message).toBe(
      `Task ${id} is completed; a terminal task has nothing more to stream (read it with tasks/get)`,
    )
  })
})
