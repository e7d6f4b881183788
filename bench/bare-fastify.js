/**
 * The ceiling: a bare Fastify 5 app doing the same JSON work as ours on the same endpoints,
 * without our engine (no zod, no store/event log, no skill runner, no state machine).
 *
 *   PORT=3001 [HOST=127.0.0.1] [BARE_CARD='{"name":...}'] [BARE_REDIS_URL=redis://…] \
 *     node bench/bare-fastify.js
 *
 * BARE_CARD is the agent card to serve (bench/run.js passes the real one, read from our server);
 * without it a card-sized stand-in is served. With BARE_REDIS_URL, each send (blocking or
 * streamed) also does one Redis write and one read of the task (SET with a TTL, then GET): the
 * ceiling for a Redis-backed server. Without it, tasks are kept in a Map.
 */
import { randomUUID } from 'node:crypto'
import process from 'node:process'
import Fastify from 'fastify'
import { Redis } from 'ioredis'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const card = process.env.BARE_CARD ? JSON.parse(process.env.BARE_CARD) : standInCard()
const tasks = process.env.BARE_REDIS_URL
  ? redisTasks(new Redis(process.env.BARE_REDIS_URL))
  : mapTasks()
const app = Fastify({ logger: false })

// Serialized on every request by Fastify's default serializer (ours serves a pre-rendered string).
app.get('/.well-known/agent.json', async () => card)

app.post('/tasks/send', async (request, reply) => {
  const task = await handleSend(request.body, reply)
  return task
})

// The stream of the same task: a frame per state (submitted, working, completed), as SSE.
app.post('/tasks/sendSubscribe', async (request, reply) => {
  const task = await handleSend(request.body, reply)
  if (reply.sent) return reply
  reply.hijack()
  reply.raw.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  })
  let frames = ''
  for (const [index, status] of task.statusHistory.entries()) {
    const final = index === task.statusHistory.length - 1
    const frame = { id: task.id, sessionId: task.sessionId, status, artifacts: [], final }
    if (final) frame.artifacts = task.artifacts
    frames += `id: ${index + 1}\ndata: ${JSON.stringify(frame)}\n\n`
  }
  reply.raw.end(frames)
  return reply
})

/** Validates the send body, then returns the task (stored, or the one stored before). */
async function handleSend(body, reply) {
  const { id, message, metadata } = body ?? {}
  if (typeof id !== 'string' || !UUID.test(id)) return badRequest(reply, 'id must be a UUID')
  if (message?.role !== 'user' || !Array.isArray(message.parts) || message.parts.length === 0) {
    return badRequest(reply, 'message needs role "user" and at least one part')
  }
  const text = message.parts
    .filter((part) => part?.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text)
    .join('\n')
  const submitted = { state: 'submitted', timestamp: new Date().toISOString() }
  const working = { state: 'working', timestamp: new Date().toISOString() }
  const completed = {
    state: 'completed',
    timestamp: new Date().toISOString(),
    message: { role: 'agent', parts: [{ type: 'text', text }] },
  }
  const task = {
    id,
    sessionId: randomUUID(),
    status: completed,
    artifacts: [{ name: 'echo', parts: [{ type: 'text', text }], index: 0 }],
    statusHistory: [submitted, working, completed],
    ...(metadata && { metadata }),
  }
  return tasks.save(task)
}

/** Tasks in a Map: save returns the stored task (an earlier one with the same id wins). */
function mapTasks() {
  const map = new Map()
  return {
    save(task) {
      const existing = map.get(task.id)
      if (existing) return existing
      map.set(task.id, task)
      return task
    },
    close() {},
  }
}

/** Tasks in Redis: one write (SET NX with a TTL) and one read (GET) per save. */
function redisTasks(redis) {
  return {
    async save(task) {
      const key = `bare:task:${task.id}`
      await redis.set(key, JSON.stringify(task), 'EX', 60, 'NX')
      return JSON.parse(await redis.get(key))
    },
    close: () => redis.quit(),
  }
}

function badRequest(reply, message) {
  return reply.code(400).send({ error: { code: -32600, message } })
}

/** A card of about the real one's size and shape, for running this server on its own. */
function standInCard() {
  const skill = (id, name, description, tags) => ({
    id,
    name,
    description,
    tags,
    examples: ['hello'],
    inputModes: ['text', 'data'],
    outputModes: ['text', 'data'],
  })
  return {
    name: 'Code Review Agent',
    description: 'Reviews pull requests for bugs, style violations, and security issues',
    url: `http://localhost:${process.env.PORT ?? 3000}`,
    version: '1.0.0',
    capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: true },
    authentication: { schemes: [], credentials: null },
    defaultInputModes: ['text', 'data'],
    defaultOutputModes: ['text', 'data'],
    skills: [skill('echo', 'Echo', 'Replies with the text and data it was sent', ['utility'])],
  }
}

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(
    signal,
    () =>
      void app
        .close()
        .then(() => tasks.close())
        .then(() => process.exit(0)),
  )
}
await app.listen({ host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT ?? 3000) })
