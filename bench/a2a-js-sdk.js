/**
 * The official SDK's own server, for `npm run bench`: @a2a-js/sdk 1.3's Express JSON-RPC handler
 * (A2A 1.0, 0.3 compatibility on, as its docs recommend) with an echo executor that does what
 * our echo skill does: the task, one artifact with the text, completed with the text as message.
 * The JSON-RPC endpoint is at /a2a/jsonrpc and the card at /.well-known/agent-card.json, the
 * paths ours uses, so that one scenario loads both. Listens on HOST:PORT.
 */
import { randomUUID } from 'node:crypto'
import process from 'node:process'
import { Role, TaskState } from '@a2a-js/sdk'
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server'
import { UserBuilder, agentCardHandler, jsonRpcHandler } from '@a2a-js/sdk/server/express'
import express from 'express'
import echoCard from './sdk-echo-card.json' with { type: 'json' }

const host = process.env.HOST ?? '127.0.0.1'
const port = Number(process.env.PORT ?? 41241)
const base = `http://${host}:${port}`

// The card the test suite's SDK agent serves too (test/client/sdk-agent.ts), at this server's URL.
const card = {
  ...echoCard,
  supportedInterfaces: ['1.0', '0.3'].map((protocolVersion) => ({
    url: `${base}/a2a/jsonrpc`,
    protocolBinding: 'JSONRPC',
    tenant: '',
    protocolVersion,
  })),
}

const textPart = (value) => ({
  content: { $case: 'text', value },
  metadata: undefined,
  filename: '',
  mediaType: 'text/plain',
})

class EchoExecutor {
  async execute(context, bus) {
    const { taskId, contextId, userMessage, task } = context
    const text = userMessage.parts
      .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
      .join('\n')
    const now = new Date().toISOString()
    if (!task) {
      bus.publish(
        AgentEvent.task({
          id: taskId,
          contextId,
          status: { state: TaskState.TASK_STATE_SUBMITTED, timestamp: now, message: undefined },
          artifacts: [],
          history: [userMessage],
          metadata: undefined,
        }),
      )
    }
    bus.publish(
      AgentEvent.artifactUpdate({
        taskId,
        contextId,
        artifact: {
          artifactId: randomUUID(),
          name: 'echo',
          description: '',
          parts: [textPart(text)],
          metadata: undefined,
          extensions: [],
        },
        append: false,
        lastChunk: true,
        metadata: undefined,
      }),
    )
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: {
          state: TaskState.TASK_STATE_COMPLETED,
          timestamp: new Date().toISOString(),
          message: {
            messageId: randomUUID(),
            contextId,
            taskId,
            role: Role.ROLE_AGENT,
            parts: [textPart(text)],
            metadata: undefined,
            extensions: [],
            referenceTaskIds: [],
          },
        },
        metadata: undefined,
      }),
    )
    bus.finished()
  }

  async cancelTask() {}
}

const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new EchoExecutor())
const app = express()
app.use(
  '/.well-known/agent-card.json',
  agentCardHandler({ agentCardProvider: requestHandler, legacyCompat: { enabled: true } }),
)
app.use(
  '/a2a/jsonrpc',
  jsonRpcHandler({
    requestHandler,
    userBuilder: UserBuilder.noAuthentication,
    legacyCompat: { enabled: true },
  }),
)
const server = app.listen(port, host)
process.once('SIGTERM', () => server.close(() => process.exit(0)))
