/**
 * A stream that the agent ends because its task store (Redis) went away. The JSON-RPC dialects
 * end it with an in-stream SERVICE_UNAVAILABLE error that says when to try again (1.0: ErrorInfo
 * and RetryInfo; 0.3: -32603 with `retryAfterSeconds`); the seed dialect just closes it. In every
 * dialect the client resumes as after a dropped connection, never sooner than the agent asked,
 * and its caller sees every event once. A private redis-server is stopped and started again; the
 * shared one on 6379 is never touched.
 */
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { A2AClientOptions, ResolveOptions, StreamEvent } from '../../src/index.js'
import { A2AClient, AgentError, StreamInterruptedError } from '../../src/index.js'
import { token } from '../helpers/auth.js'
import { PrivateRedis, hasRedisServer } from '../helpers/private-redis.js'
import { startAgent } from './agents.js'

const dialects: [string, A2AClientOptions & ResolveOptions, string][] = [
  ['seed', { dialect: 'seed' }, '/tasks/sendSubscribe'],
  ['jsonrpc-1.0', {}, 'SubscribeToTask'],
  ['jsonrpc-0.3', { protocolVersion: '0.3' }, 'tasks/resubscribe'],
]

/** What the agent asks for (1 s) and what this client's own backoff would wait (≤ 40 ms). */
const AGENT_RETRY_DELAY_MS = 1_000
const OWN_BACKOFF = { initialDelayMs: 20, maxDelayMs: 40 }

/** One request the client made: what it asked for, when, and when the answer's head came. */
interface Sent {
  what: string
  at: number
  answeredAt: number
  streamed: boolean
}

/** A fetch that notes every request: the JSON-RPC method, or the seed path. */
function recordingFetch(sent: Sent[]): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    const body =
      typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: unknown }) : {}
    const what = typeof body.method === 'string' ? body.method : url.pathname
    const at = Date.now()
    const response = await fetch(input, init)
    const streamed = (response.headers.get('content-type') ?? '').startsWith('text/event-stream')
    sent.push({ what, at, answeredAt: Date.now(), streamed })
    return response
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe.skipIf(!hasRedisServer).each(dialects)(
  'a %s stream whose agent loses its task store',
  (dialect, options, resume) => {
    let redis: PrivateRedis
    let app: FastifyInstance
    let url: string

    beforeAll(async () => {
      redis = await PrivateRedis.start()
      ;({ app, url } = await startAgent({ REDIS_URL: redis.url }))
    }, 30_000)
    afterAll(async () => {
      await app?.close()
      await redis?.remove()
    })

    /** Stops Redis (it writes its AOF), leaves it down for `ms`, and starts it again. */
    async function outage(ms: number): Promise<void> {
      await redis.stop()
      await pause(ms)
      await redis.start()
    }

    it('resumes once the store is back and yields every event once, ending completed', async () => {
      const sent: Sent[] = []
      const client = await A2AClient.connect(url, {
        ...options,
        token: token(),
        fetch: recordingFetch(sent),
        reconnect: { retries: 8, ...OWN_BACKOFF },
      })
      const events: StreamEvent[] = []
      let restarted: Promise<void> | undefined
      for await (const event of client.stream({ skill: 'nap', data: { ms: 4_000 } })) {
        events.push(event)
        restarted ??= outage(2_500)
      }
      await restarted

      expect(events[0]!.kind).toBe('task')
      expect(events.filter((e) => e.kind === 'task')).toHaveLength(1)
      const statuses = events.flatMap((e) => (e.kind === 'status-update' ? [e.status] : []))
      const reports = statuses.map((status) => `${status.state} ${status.timestamp}`)
      expect(reports).toEqual([...new Set(reports)])
      const last = events.at(-1)!
      expect(last.kind === 'status-update' && [last.status.state, last.final]).toEqual([
        'completed',
        true,
      ])
      expect(events.filter((e) => e.kind === 'status-update' && e.final)).toHaveLength(1)

      const resumes = sent
        .filter((request) => request.what === resume)
        .slice(dialect === 'seed' ? 1 : 0)
      expect(resumes.length).toBeGreaterThanOrEqual(2)
      // After a resume the agent refused while its store was down, the next waits the 1 s the
      // agent asked for, not the client's own 20–40 ms.
      const waits = resumes.slice(1).flatMap((next, i) => {
        const refused = resumes[i]!
        return refused.streamed ? [] : [next.at - refused.answeredAt]
      })
      expect(waits.length).toBeGreaterThanOrEqual(1)
      for (const wait of waits) expect(wait).toBeGreaterThanOrEqual(AGENT_RETRY_DELAY_MS - 50)
    }, 30_000)

    // A JSON-RPC resume subscribes to the task: it would follow the task without the answer.
    it.runIf(dialect !== 'seed')(
      'throws the unavailable error when it answers a question while the store is down, rather than follow the question again',
      async () => {
        const client = await A2AClient.connect(url, {
          ...options,
          token: token(),
          reconnect: { retries: 8, ...OWN_BACKOFF },
        })
        const asked = await client.send({ skill: 'ask', text: 'paint it' })
        expect(asked.kind === 'task' && asked.status.state).toBe('input-required')
        const { id: taskId, contextId } = asked as { id: string; contextId: string }

        await redis.stop()
        const restarted = pause(1_500).then(() => redis.start())
        const events: StreamEvent[] = []
        const error = await (async () => {
          for await (const event of client.stream({ text: 'blue', taskId, contextId })) {
            events.push(event)
          }
        })().catch((e: unknown) => e)
        await restarted

        expect(events).toEqual([])
        expect(error).toBeInstanceOf(AgentError)
        expect(error).toMatchObject({ reason: 'SERVICE_UNAVAILABLE', busy: true })
      },
      30_000,
    )

    it.runIf(dialect !== 'seed')(
      "gives up, when it may not reconnect, with the agent's SERVICE_UNAVAILABLE as the cause: busy, retry after 1 s",
      async () => {
        const client = await A2AClient.connect(url, {
          ...options,
          token: token(),
          reconnect: { retries: 0 },
        })
        let restarted: Promise<void> | undefined
        const error = await (async () => {
          for await (const event of client.stream({ skill: 'nap', data: { ms: 2_000 } })) {
            void event
            restarted ??= outage(1_500)
          }
        })().catch((e: unknown) => e)
        await restarted

        expect(error).toBeInstanceOf(StreamInterruptedError)
        const cause = (error as StreamInterruptedError).cause
        expect(cause).toBeInstanceOf(AgentError)
        expect(cause).toMatchObject({
          status: 200,
          code: -32603,
          reason: 'SERVICE_UNAVAILABLE',
          message: 'The task store is unavailable; try again shortly',
          retryAfterMs: AGENT_RETRY_DELAY_MS,
          busy: true,
          agentFault: false,
        })
      },
      30_000,
    )
  },
)
