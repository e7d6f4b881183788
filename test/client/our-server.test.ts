/**
 * A2AClient against this server over real HTTP, in each dialect the card can name: the brief's
 * /tasks routes (its card at /.well-known/agent.json), A2A 1.0 JSON-RPC and A2A 0.3 JSON-RPC.
 */
import { token } from '../helpers/auth.js'
import { randomUUID } from 'node:crypto'
import { getEventListeners } from 'node:events'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { A2AClientOptions, ResolveOptions, StreamEvent } from '../../src/index.js'
import { A2AClient, A2ATimeoutError, AgentError, SkillNotDeclaredError } from '../../src/index.js'
import { startAgent, textOf } from './agents.js'

const dialects: [string, A2AClientOptions & ResolveOptions, string][] = [
  ['seed', { dialect: 'seed' }, '/.well-known/agent.json'],
  ['jsonrpc-1.0', {}, '/.well-known/agent-card.json'],
  ['jsonrpc-0.3', { protocolVersion: '0.3' }, '/.well-known/agent-card.json'],
]

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const seen: StreamEvent[] = []
  for await (const event of events) seen.push(event)
  return seen
}

/** A readable line per event, to compare whole sequences. */
const describeEvent = (event: StreamEvent): string => {
  switch (event.kind) {
    case 'task':
      return `task ${event.status.state}`
    case 'message':
      return `message ${textOf(event.parts)}`
    case 'status-update':
      return `status ${event.status.state} ${textOf(event.status.message?.parts)}`.trim()
    case 'artifact-update':
      return `artifact ${event.append ? '+' : '='}${textOf(event.artifact.parts)}`
  }
}

describe.each(dialects)('A2AClient speaking %s to this server', (dialect, options, cardPath) => {
  let app: FastifyInstance
  let url: string
  let client: A2AClient

  beforeAll(async () => {
    ;({ app, url } = await startAgent({ SEND_WAIT_MS: '150' }))
    client = await A2AClient.connect(url, { ...options, token: token() })
  })
  afterAll(() => app.close())

  it('resolves the card and picks the dialect from it', () => {
    expect(client.card.dialect).toBe(dialect)
    expect(client.card.source).toBe(`${url}${cardPath}`)
    expect(client.card.name).toBeTruthy()
    expect(client.card.streaming).toBe(true)
    expect(client.card.skills.map((s) => s.id)).toEqual(['echo', 'ask', 'steps', 'wait', 'nap'])
  })

  it('sends and gets the completed task with its artifact', async () => {
    const result = await client.send({ text: 'hello', skill: 'echo' })
    expect(result.kind).toBe('task')
    if (result.kind !== 'task') return
    expect(result.status.state).toBe('completed')
    expect(textOf(result.status.message?.parts)).toBe('hello')
    expect(result.artifacts).toHaveLength(1)
    expect(textOf(result.artifacts[0]!.parts)).toBe('hello')
  })

  it('streams every step in order, each once, ending with the final state', async () => {
    const events = await collect(client.stream({ skill: 'steps', data: { steps: 3, delayMs: 20 } }))
    expect(events[0]!.kind).toBe('task')
    const rest = events.slice(1).map(describeEvent)
    expect(rest.filter((line) => line !== 'status working')).toEqual([
      'status working step 1',
      'artifact =line 1\n',
      'status working step 2',
      'artifact +line 2\n',
      'status working step 3',
      'artifact +line 3\n',
      'status completed done after 3 steps',
    ])
    const last = events.at(-1)!
    expect(last.kind === 'status-update' && last.final).toBe(true)
  })

  it('leaves no listener on a signal the caller passes to many calls', async () => {
    const shared = new AbortController()
    for (let i = 0; i < 12; i++) {
      await client.send({ text: `hello ${i}`, skill: 'echo' }, { signal: shared.signal })
    }
    await collect(client.stream({ text: 'hi', skill: 'echo' }, { signal: shared.signal }))
    expect(getEventListeners(shared.signal, 'abort')).toEqual([])
  })

  it('gets a task by id, as the agent holds it', async () => {
    const sent = await client.send({ text: 'keep me', skill: 'echo' })
    if (sent.kind !== 'task') throw new Error('expected a task')
    const task = await client.get(sent.id)
    expect(task.id).toBe(sent.id)
    expect(task.contextId).toBe(sent.contextId)
    expect(task.status.state).toBe('completed')
    expect(textOf(task.artifacts[0]?.parts)).toBe('keep me')
  })

  it('cancels a running task, and the stream ends canceled', async () => {
    const events: StreamEvent[] = []
    for await (const event of client.stream({ text: 'go', skill: 'wait' })) {
      events.push(event)
      if (event.kind === 'status-update' && textOf(event.status.message?.parts) === 'waiting') {
        const canceled = await client.cancel(event.taskId)
        expect(canceled.status.state).toBe('canceled')
      }
    }
    const last = events.at(-1)!
    expect(last.kind === 'status-update' && last.status.state).toBe('canceled')
  })

  it('continues a task that asks for input', async () => {
    const first = await client.send({ text: 'paint it', skill: 'ask' })
    if (first.kind !== 'task') throw new Error('expected a task')
    expect(first.status.state).toBe('input-required')
    expect(textOf(first.status.message?.parts)).toBe('Which colour?')
    const second = await client.continue(first, { text: 'blue' })
    if (second.kind !== 'task') throw new Error('expected a task')
    expect(second.id).toBe(first.id)
    expect(second.status.state).toBe('completed')
    expect(textOf(second.artifacts[0]?.parts)).toBe('colour: blue')
  })

  it('waits for a task that is still working by polling with backoff', async () => {
    const sent = await client.send({ skill: 'nap', data: { ms: 500 } }, { blocking: false })
    if (sent.kind !== 'task') throw new Error('expected a task')
    expect(['submitted', 'working']).toContain(sent.status.state)
    const started = Date.now()
    const done = await client.waitForCompletion(sent.id, { initialDelayMs: 50, maxDelayMs: 200 })
    expect(done.status.state).toBe('completed')
    expect(textOf(done.status.message?.parts)).toBe('rested')
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  it('gives up waiting at the timeout, not a backoff step before it', async () => {
    const sent = await client.send({ skill: 'nap', data: { ms: 3000 } }, { blocking: false })
    const started = Date.now()
    const error = await client
      .waitForCompletion(sent.kind === 'task' ? sent.id : '', { timeoutMs: 1000, maxDelayMs: 800 })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(A2ATimeoutError)
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000)
    await client.cancel(sent.kind === 'task' ? sent.id : '')
  })

  it('refuses a skill the card does not declare, naming the ones it does', async () => {
    const error = await client.send({ text: 'x', skill: 'translate' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SkillNotDeclaredError)
    expect(error).toMatchObject({
      skillId: 'translate',
      offered: ['echo', 'ask', 'steps', 'wait', 'nap'],
    })
    expect((error as Error).message).toBe(
      'The agent does not declare skill "translate"; it offers: echo, ask, steps, wait, nap',
    )
  })

  it("surfaces the agent's error code and message for an unknown task", async () => {
    const taskId = randomUUID()
    const error = await client.get(taskId).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AgentError)
    const agentError = error as AgentError
    expect(agentError.reason).toBe('TASK_NOT_FOUND')
    expect(agentError.message).toBe(`Task ${taskId} not found`)
    if (dialect === 'seed') {
      expect(agentError).toMatchObject({ status: 404, code: 'TASK_NOT_FOUND' })
      expect(agentError.data).toMatchObject({ taskId })
    } else {
      expect(agentError).toMatchObject({ status: 200, code: -32001 })
    }
  })

  it('says a missing scope in A2A words, as a refusal of the credentials, in every dialect', async () => {
    const limited = await A2AClient.connect(url, {
      ...options,
      token: token({ scopes: ['a2a:invoke', 'skill:ask'] }),
    })
    const error = await limited.send({ text: 'hi', skill: 'echo' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AgentError)
    expect(error).toMatchObject({ reason: 'PERMISSION_DENIED', credentialsRefused: true })
    expect((error as AgentError).busy).toBe(false)
  })

  it('refuses a message it cannot send before sending it', async () => {
    await expect(client.send({ skill: 'echo' })).rejects.toThrow(
      'A message needs text, data or parts',
    )
    await expect(
      client.send({ skill: 'echo', parts: [{ kind: 'nonsense' } as never] }),
    ).rejects.toThrow(new TypeError('parts[0].kind: must be one of "text", "data", "file"'))
    await expect(
      client.send({ skill: 'echo', text: 'hi', parts: [{ kind: 'data', data: 5 } as never] }),
    ).rejects.toThrow(new TypeError('parts[1].data: must be an object'))
  })

  it("surfaces the agent's refusal to cancel a finished task", async () => {
    const sent = await client.send({ text: 'done', skill: 'echo' })
    if (sent.kind !== 'task') throw new Error('expected a task')
    const error = await client.cancel(sent.id).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AgentError)
    expect(error).toMatchObject({
      reason: 'TASK_NOT_CANCELABLE',
      message: `Task ${sent.id} is completed and cannot be canceled`,
      code: dialect === 'seed' ? 'TASK_NOT_CANCELABLE' : -32002,
    })
  })
})
