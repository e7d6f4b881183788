/**
 * The official SDK's server (@a2a-js/sdk 1.3, Express, A2A 1.0 with 0.3 compatibility on), with
 * an executor of our own: "slow …" works until canceled; anything else is echoed back as an
 * artifact and a completed status, the way bench/a2a-js-sdk.js does.
 */
import { randomUUID } from 'node:crypto'
import type { Server } from 'node:http'
import { Role, TaskState } from '@a2a-js/sdk'
import type { AgentCard, Message, Part } from '@a2a-js/sdk'
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server'
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server'
import { UserBuilder, agentCardHandler, jsonRpcHandler } from '@a2a-js/sdk/server/express'
// @ts-expect-error -- express ships no types, and @types/express is not a dependency
import express from 'express'
import echoCard from '../../bench/sdk-echo-card.json' with { type: 'json' }
import { freePort } from './agents.js'

const text = (value: string): Part => ({
  content: { $case: 'text', value },
  metadata: undefined,
  filename: '',
  mediaType: 'text/plain',
})

const agentMessage = (taskId: string, contextId: string, value: string): Message => ({
  messageId: randomUUID(),
  contextId,
  taskId,
  role: Role.ROLE_AGENT,
  parts: [text(value)],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
})

class EchoOrWait implements AgentExecutor {
  readonly #waiting = new Map<string, () => void>()

  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId, userMessage, task } = context
    const input = userMessage.parts
      .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
      .join('\n')
    const status = (state: TaskState, message?: string) =>
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: {
          state,
          timestamp: new Date().toISOString(),
          message: message === undefined ? undefined : agentMessage(taskId, contextId, message),
        },
        metadata: undefined,
      })
    if (!task) {
      bus.publish(
        AgentEvent.task({
          id: taskId,
          contextId,
          status: {
            state: TaskState.TASK_STATE_SUBMITTED,
            timestamp: new Date().toISOString(),
            message: undefined,
          },
          artifacts: [],
          history: [userMessage],
          metadata: undefined,
        }),
      )
    }
    if (input.startsWith('slow')) {
      bus.publish(status(TaskState.TASK_STATE_WORKING, 'working slowly'))
      await new Promise<void>((resolve) => this.#waiting.set(taskId, resolve))
      bus.publish(status(TaskState.TASK_STATE_CANCELED, 'canceled on request'))
      bus.finished()
      return
    }
    bus.publish(
      AgentEvent.artifactUpdate({
        taskId,
        contextId,
        artifact: {
          artifactId: randomUUID(),
          name: 'echo',
          description: '',
          parts: [text(`echo: ${input}`)],
          metadata: undefined,
          extensions: [],
        },
        append: false,
        lastChunk: true,
        metadata: undefined,
      }),
    )
    bus.publish(status(TaskState.TASK_STATE_COMPLETED, `echo: ${input}`))
    bus.finished()
  }

  async cancelTask(taskId: string): Promise<void> {
    this.#waiting.get(taskId)?.()
    this.#waiting.delete(taskId)
  }
}

export async function startSdkAgent(): Promise<{ url: string; close: () => Promise<void> }> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  // The benchmark's SDK agent card, at this server's URL.
  const card = {
    ...echoCard,
    supportedInterfaces: ['1.0', '0.3'].map((protocolVersion) => ({
      url: `${url}/a2a/jsonrpc`,
      protocolBinding: 'JSONRPC',
      tenant: '',
      protocolVersion,
    })),
  } as unknown as AgentCard
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new EchoOrWait())
  const app = express()
  app.use(
    '/.well-known/agent-card.json',
    agentCardHandler({ agentCardProvider: handler, legacyCompat: { enabled: true } }),
  )
  app.use(
    '/a2a/jsonrpc',
    jsonRpcHandler({
      requestHandler: handler,
      userBuilder: UserBuilder.noAuthentication,
      legacyCompat: { enabled: true },
    }),
  )
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(port, '127.0.0.1', () => resolve(listening))
  })
  return {
    url,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
