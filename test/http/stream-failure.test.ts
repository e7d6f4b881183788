/**
 * A stream whose store fails after its first frame (Redis away) ends, in every dialect, and is
 * logged as a refusal (`warn`), not as a fault; the seed stream ends without an error frame
 * (the brief has none), for the client to resume from its Last-Event-ID.
 */
import type { FastifyInstance } from 'fastify'
import { pino } from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { memoryBackend } from '../../src/backends/memory.js'
import { configFrom } from '../../src/config.js'
import { storeUnavailable } from '../../src/store/redis/connection.js'
import { listening, testApp } from '../helpers/app.js'
import { sendBody } from '../helpers/bodies.js'
import { rpcOverHttp, v10Message } from '../helpers/jsonrpc.js'
import { slowSkill } from '../helpers/skills.js'
import { echoSkill } from '../../src/skills/echo/index.js'
import { keptLog } from '../helpers/log.js'
import { readAll, sendSubscribe } from '../helpers/sse.js'

/** An app whose event log fails once a stream follows it. */
async function appWithFailingFollow() {
  const { lines, logger } = keptLog()
  const backend = memoryBackend(configFrom({}), pino({ level: 'silent' }))
  // The memory log, but for `follow`: its methods bound to it (they use private fields).
  const failingFollow = async function* () {
    yield* []
    throw storeUnavailable(new Error('Connection is closed.'))
  }
  const events = new Proxy(backend.events, {
    get: (log, name) =>
      name === 'follow'
        ? failingFollow
        : (Reflect.get(log, name) as (...args: unknown[]) => unknown).bind(log),
  })
  const app = await testApp({}, { skills: [slowSkill()], store: { ...backend, events }, logger })
  return { app, lines }
}

describe('a stream whose store fails after its first frame', () => {
  let app: FastifyInstance
  afterEach(() => app.close())

  it('ends the seed stream after the frames it had, logged at warn', async () => {
    const failing = await appWithFailingFollow()
    app = failing.app
    const { frames } = await readAll(await sendSubscribe(await listening(app), sendBody('x')))
    expect(frames.map((frame) => JSON.parse(frame.data).status.state)).toEqual(['submitted'])
    expect(failing.lines.filter((line) => line.level >= 50)).toEqual([])
    expect(failing.lines).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: 'stream ended: The task store is unavailable; try again shortly',
      }),
    )
  })

  it('sends the A2A error frame, logged at warn', async () => {
    const failing = await appWithFailingFollow()
    app = failing.app
    const response = await rpcOverHttp(await listening(app), 'SendStreamingMessage', {
      message: v10Message('x'),
    })
    const { frames } = await readAll(response)
    expect(frames.at(-1)).toMatchObject({ event: 'error' })
    expect(failing.lines.filter((line) => line.level >= 50)).toEqual([])
  })

  it('logs a turn that the store stopped at warn, not as a skill fault', async () => {
    const { lines, logger } = keptLog()
    const backend = memoryBackend(configFrom({}), pino({ level: 'silent' }))
    const tasks = new Proxy(backend.tasks, {
      get: (store, name) =>
        name === 'applyAll'
          ? () => Promise.reject(storeUnavailable(new Error('Connection is closed.')))
          : (Reflect.get(store, name) as (...args: unknown[]) => unknown).bind(store),
    })
    app = await testApp(
      { SEND_WAIT_MS: '200' },
      { skills: [echoSkill], store: { ...backend, tasks }, logger },
    )
    await app.inject({ method: 'POST', url: '/tasks/send', payload: sendBody('x') })
    expect(lines.filter((line) => line.level >= 50)).toEqual([])
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: 'turn stopped: The task store is unavailable; try again shortly',
      }),
    )
  })
})
