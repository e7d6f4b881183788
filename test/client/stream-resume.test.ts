/**
 * A stream that drops mid-task: the client reconnects (seed: the same request again with
 * `Last-Event-ID`; JSON-RPC: SubscribeToTask / tasks/resubscribe, or reading the task when it
 * ended meanwhile) and its caller sees every event once, ending with the final state. The
 * connection is cut for real: a TCP proxy between client and server destroys its sockets.
 */
import { token } from '../helpers/auth.js'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { A2AClientOptions, ResolveOptions, StreamEvent } from '../../src/index.js'
import { A2AClient, StreamInterruptedError } from '../../src/index.js'
import { CuttableProxy, startAgent, textOf } from './agents.js'

const dialects: [string, A2AClientOptions & ResolveOptions][] = [
  ['seed', { dialect: 'seed' }],
  ['jsonrpc-1.0', {}],
  ['jsonrpc-0.3', { protocolVersion: '0.3' }],
]

const STEPS = 8
const ALL_LINES = Array.from({ length: STEPS }, (_, i) => `line ${i + 1}\n`).join('')

/** The artifact as the caller rebuilds it from the updates it was given. */
function artifactText(events: StreamEvent[]): string {
  let text = ''
  for (const event of events) {
    if (event.kind !== 'artifact-update') continue
    text = event.append ? text + textOf(event.artifact.parts) : textOf(event.artifact.parts)
  }
  return text
}

const stepsSeen = (events: StreamEvent[]) =>
  events.flatMap((event) =>
    event.kind === 'status-update' && /^step \d+$/.test(textOf(event.status.message?.parts))
      ? [Number(textOf(event.status.message?.parts).slice(5))]
      : [],
  )

describe.each(dialects)('a dropped %s stream', (dialect, options) => {
  let app: FastifyInstance
  let proxy: CuttableProxy
  let client: A2AClient
  let tokensIssued = 0

  beforeAll(async () => {
    proxy = new CuttableProxy()
    const publicUrl = await proxy.listen()
    const agent = await startAgent({}, publicUrl)
    app = agent.app
    proxy.target = Number(new URL(agent.url).port)
    client = await A2AClient.connect(publicUrl, {
      ...options,
      // A fresh token each time (a later expiry makes each one different).
      token: () => token({ ttlSeconds: 600 + ++tokensIssued }),
      reconnect: { retries: 8, initialDelayMs: 50, maxDelayMs: 400 },
    })
  })
  afterAll(async () => {
    await app.close()
    await proxy.close()
  })

  it('resumes after a forced disconnect and yields every event exactly once', async () => {
    const before = proxy.connections
    const events: StreamEvent[] = []
    for await (const event of client.stream({
      skill: 'steps',
      data: { steps: STEPS, delayMs: 40 },
    })) {
      events.push(event)
      if (event.kind === 'status-update' && textOf(event.status.message?.parts) === 'step 2') {
        proxy.cut()
      }
    }
    expect(proxy.connections - before).toBeGreaterThanOrEqual(2)
    expect(artifactText(events)).toBe(ALL_LINES)
    const steps = stepsSeen(events)
    // Each step once and in order; the seed dialect replays the missed frames themselves.
    expect(steps).toEqual([...new Set(steps)].sort((a, b) => a - b))
    if (dialect === 'seed') expect(steps).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
    expect(events.filter((e) => e.kind === 'task')).toHaveLength(1)
    const last = events.at(-1)!
    expect(last.kind === 'status-update' && last.status.state).toBe('completed')
    expect(events.filter((e) => e.kind === 'status-update' && e.final)).toHaveLength(1)
  })

  it('catches up with a task that ended while the agent was unreachable', async () => {
    const events: StreamEvent[] = []
    for await (const event of client.stream({
      skill: 'steps',
      data: { steps: STEPS, delayMs: 30 },
    })) {
      events.push(event)
      if (event.kind === 'status-update' && textOf(event.status.message?.parts) === 'step 1') {
        proxy.refusing = true
        proxy.cut()
        setTimeout(() => (proxy.refusing = false), STEPS * 30 + 300)
      }
    }
    expect(artifactText(events)).toBe(ALL_LINES)
    const steps = stepsSeen(events)
    expect(steps).toEqual([...new Set(steps)].sort((a, b) => a - b))
    const last = events.at(-1)!
    expect(last.kind === 'status-update' && last.status.state).toBe('completed')
    expect(textOf(last.kind === 'status-update' ? last.status.message?.parts : [])).toBe(
      `done after ${STEPS} steps`,
    )
  })

  it('asks the token provider on every request, reconnects included', () => {
    // Card, two streams and their reconnects reached the agent; attempts while it refused
    // connections asked for a token too, but sent nothing through.
    const bearers = proxy.sent.match(/authorization: Bearer [\w.-]+/gi) ?? []
    expect(bearers.length).toBeGreaterThanOrEqual(5)
    expect(new Set(bearers).size).toBe(bearers.length)
    expect(tokensIssued).toBeGreaterThanOrEqual(bearers.length)
  })

  // A JSON-RPC resume starts with the task as it is now: what the client has seen already.
  it.runIf(dialect !== 'seed')(
    'gives up when every resume repeats what was seen and drops again',
    async () => {
      const impatient = new A2AClient(client.card, {
        token: token(),
        reconnect: { retries: 3, initialDelayMs: 20, maxDelayMs: 20 },
      })
      const before = proxy.connections
      const error = await (async () => {
        for await (const event of impatient.stream({ skill: 'wait', text: 'x' })) {
          if (event.kind === 'status-update') {
            proxy.droppingAfterFirstEvent = true
            proxy.cut()
          }
        }
      })().catch((e: unknown) => e)
      proxy.droppingAfterFirstEvent = false
      expect(error).toBeInstanceOf(StreamInterruptedError)
      expect(error).toMatchObject({ attempts: 3 })
      // The first stream and three resumes (a resume that fails may read the task once more).
      expect(proxy.connections - before).toBeLessThanOrEqual(8)
      await client.cancel((error as StreamInterruptedError).taskId)
    },
  )

  it('gives up with StreamInterruptedError when the agent stays unreachable', async () => {
    const impatient = new A2AClient(client.card, {
      token: token(),
      reconnect: { retries: 2, initialDelayMs: 20 },
    })
    const events: StreamEvent[] = []
    const error = await (async () => {
      for await (const event of impatient.stream({ skill: 'wait', text: 'x' })) {
        events.push(event)
        if (event.kind === 'status-update') {
          proxy.refusing = true
          proxy.cut()
        }
      }
    })().catch((e: unknown) => e)
    proxy.refusing = false
    expect(error).toBeInstanceOf(StreamInterruptedError)
    expect(error).toMatchObject({
      attempts: 2,
      taskId: events[0]!.kind === 'task' && events[0]!.id,
    })
    if (events[0]!.kind === 'task') await client.cancel(events[0]!.id)
  })
})
