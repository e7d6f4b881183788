/**
 * A2AClient against the official SDK's server (@a2a-js/sdk 1.3 on Express): nothing in the
 * client depends on this project's server. Its card lists JSON-RPC 1.0 and 0.3; the client
 * speaks each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { StreamEvent } from '../../src/index.js'
import { A2AClient, AgentError } from '../../src/index.js'
import { textOf } from './agents.js'
import { startSdkAgent } from './sdk-agent.js'

describe.each(['1.0', '0.3'] as const)(
  'A2AClient and the @a2a-js/sdk server, JSON-RPC %s',
  (version) => {
    let agent: Awaited<ReturnType<typeof startSdkAgent>>
    let client: A2AClient

    beforeAll(async () => {
      agent = await startSdkAgent()
      client = await A2AClient.connect(agent.url, { protocolVersion: version })
    })
    afterAll(() => agent.close())

    it('reads the card the SDK serves', () => {
      expect(client.card).toMatchObject({
        name: 'SDK Echo Agent',
        dialect: `jsonrpc-${version}`,
        endpoint: `${agent.url}/a2a/jsonrpc`,
        streaming: true,
        source: `${agent.url}/.well-known/agent-card.json`,
      })
      expect(client.skill('echo').name).toBe('Echo')
    })

    it('sends and gets the completed task', async () => {
      const result = await client.send({ text: 'hello sdk', skill: 'echo' })
      if (result.kind !== 'task') throw new Error('expected a task')
      expect(result.status.state).toBe('completed')
      expect(textOf(result.status.message?.parts)).toBe('echo: hello sdk')
      expect(textOf(result.artifacts[0]?.parts)).toBe('echo: hello sdk')
      const task = await client.get(result.id)
      expect(task).toMatchObject({ id: result.id, contextId: result.contextId })
      expect(task.status.state).toBe('completed')
    })

    it('streams the task, its artifact and the final status', async () => {
      const events: StreamEvent[] = []
      for await (const event of client.stream({ text: 'stream sdk' })) events.push(event)
      expect(events.map((e) => e.kind)).toEqual(['task', 'artifact-update', 'status-update'])
      const [task, artifact, status] = events
      expect(task!.kind === 'task' && task!.status.state).toBe('submitted')
      expect(artifact!.kind === 'artifact-update' && textOf(artifact!.artifact.parts)).toBe(
        'echo: stream sdk',
      )
      expect(status).toMatchObject({
        kind: 'status-update',
        final: true,
        status: { state: 'completed' },
      })
    })

    it('cancels a running task', async () => {
      const events: StreamEvent[] = []
      for await (const event of client.stream({ text: 'slow one' })) {
        events.push(event)
        if (event.kind === 'status-update' && event.status.state === 'working') {
          const canceled = await client.cancel(event.taskId)
          expect(canceled.status.state).toBe('canceled')
        }
      }
      expect(events.at(-1)).toMatchObject({ kind: 'status-update', status: { state: 'canceled' } })
    })

    it("keeps the SDK's error code and message", async () => {
      const error = await client.get('does-not-exist').catch((e: unknown) => e)
      expect(error).toBeInstanceOf(AgentError)
      expect(error).toMatchObject({
        code: -32001,
        reason: 'TASK_NOT_FOUND',
        message: 'Task not found: does-not-exist',
        status: 200,
      })
    })
  },
)
