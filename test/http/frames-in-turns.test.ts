/**
 * SSE frames made in one turn of the event loop leave in one write (src/http/frames-in-turns.ts):
 * a fast turn's whole stream is one packet on the wire, and a frame made later still goes out
 * on its own, at once.
 */
import type { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { listening, testApp } from '../helpers/app.js'
import { sendBody } from '../helpers/bodies.js'
import { rpcOverHttp, v10Message } from '../helpers/jsonrpc.js'
import { readAll, sendSubscribe } from '../helpers/sse.js'
import { slowSkill } from '../helpers/skills.js'
import { echoSkill } from '../../src/skills/echo/index.js'

/** Counts the writes the server makes to its sockets (a corked burst is one `_writev`). */
function countWrites(app: FastifyInstance): { count: () => number } {
  let writes = 0
  app.server.on('connection', (socket: Socket) => {
    const stream = socket as unknown as Record<'_write' | '_writev', (...args: unknown[]) => void>
    for (const method of ['_write', '_writev'] as const) {
      const original = stream[method].bind(socket)
      stream[method] = (...args: unknown[]) => {
        writes++
        original(...args)
      }
    }
  })
  return { count: () => writes }
}

/** The frames' states: the second `working` is the artifact's frame (echo) or the progress's. */
const FRAME_STATES = ['submitted', 'working', 'working', 'completed']

/** Streams a task of the brief's dialect to its end; resolves with each frame's state. */
async function streamedStates(base: string, text: string): Promise<string[]> {
  const { frames } = await readAll(await sendSubscribe(base, sendBody(text)))
  return frames.map((frame) => JSON.parse(frame.data).status.state)
}

describe('SSE frames made in one turn of the event loop', () => {
  let app: FastifyInstance
  afterEach(() => app.close())

  it('reach the client in one write: headers and a fast task stream from submitted to completed', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const writes = countWrites(app)
    const base = await listening(app)
    expect(await streamedStates(base, 'one write')).toEqual(FRAME_STATES)
    expect(writes.count()).toBe(1)
  })

  it('reach the client in one write on the A2A 1.0 stream too', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const writes = countWrites(app)
    const base = await listening(app)
    const response = await rpcOverHttp(base, 'SendStreamingMessage', {
      message: v10Message('one write'),
    })
    const { frames } = await readAll(response)
    expect(frames.length).toBeGreaterThan(1)
    expect(JSON.parse(frames.at(-1)!.data).result.statusUpdate.status.state).toBe(
      'TASK_STATE_COMPLETED',
    )
    expect(writes.count()).toBe(1)
  })

  it('go out turn by turn when the task makes them apart, none held back', async () => {
    // Progress at once, the outcome 50 ms later: two turns, two writes.
    app = await testApp({}, { skills: [slowSkill(50)] })
    const writes = countWrites(app)
    const base = await listening(app)
    expect(await streamedStates(base, 'go')).toEqual(FRAME_STATES)
    expect(writes.count()).toBe(2)
  })
})
