/**
 * The ceiling: a bare Fastify 5 app doing the same JSON work as ours on the same two endpoints,
 * without our engine (no zod, no store/event log, no skill runner, no state machine).
 *
 *   PORT=3001 [HOST=127.0.0.1] [BARE_CARD='{"name":...}'] node bench/bare-fastify.js
 *
 * BARE_CARD is the agent card to serve (bench/run.js passes the real one, read from our server);
 * without it a card-sized stand-in is served.
 */
import { randomUUID } from 'node:crypto'
import process from 'node:process'
import Fastify from 'fastify'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const card = process.env.BARE_CARD ? JSON.parse(process.env.BARE_CARD) : standInCard()
const tasks = new Map()
const app = Fastify({ logger: false })

// Serialized on every request by Fastify's default serializer (ours serves a pre-rendered string).
app.get('/.well-known/agent.json', async () => card)

app.post('/tasks/send', async (request, reply) => {
  const { id, message, metadata } = request.body ?? {}
  if (typeof id !== 'string' || !UUID.test(id)) return badRequest(reply, 'id must be a UUID')
  if (message?.role !== 'user' || !Array.isArray(message.parts) || message.parts.length === 0) {
    return badRequest(reply, 'message needs role "user" and at least one part')
  }
  const existing = tasks.get(id)
  if (existing) return existing

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
  tasks.set(id, task)
  return task
})

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
  process.once(signal, () => void app.close().then(() => process.exit(0)))
}
await app.listen({ host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT ?? 3000) })
