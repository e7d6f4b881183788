/**
 * Orchestrator.delegate against real agents on real ports, found through an AgentRegistry:
 * delegation by skill, failover when an agent is down, no failover on a clear task failure,
 * questions answered through onInputRequired, the typed errors, and the tokens it calls agents
 * with (the agents verify TEST_SECRET, as every test app does).
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { A2AClient } from '../../src/client/client.js'
import { AgentRegistry } from '../../src/registry/registry.js'
import {
  AllAgentsFailedError,
  DelegatedTaskFailedError,
  InputRequiredError,
  NoAgentForSkillError,
} from '../../src/orchestrator/errors.js'
import { Orchestrator } from '../../src/orchestrator/orchestrator.js'
import type { AgentToken, DelegationProgress } from '../../src/orchestrator/orchestrator.js'
import { textOf, waitSkill } from '../client/agents.js'
import { token } from '../helpers/auth.js'
import {
  askSkill,
  countSkill,
  refuseSkill,
  startTestAgent,
  translateSkill,
} from '../registry/agents.js'
import type { TestAgent } from '../registry/agents.js'

describe('Orchestrator.delegate', () => {
  let alpha: TestAgent
  let beta: TestAgent
  let gamma: TestAgent
  let registry: AgentRegistry
  let orchestrator: Orchestrator

  beforeAll(async () => {
    ;[alpha, beta, gamma] = await Promise.all([
      startTestAgent('Alpha', [translateSkill('Alpha'), askSkill]),
      startTestAgent('Beta', [translateSkill('Beta')]),
      startTestAgent('Gamma', [countSkill]),
    ])
  })

  /** The orchestrator's own identity at the agents: it may use them and every skill. */
  const ORCHESTRATOR = { sub: 'orchestrator', scopes: ['a2a:invoke', 'skill:*'] }

  // A registry without running checks: the agents stay "healthy" as registered, so failover
  // (not the health checks) is what finds a stopped one.
  // null: no token at all.
  const fresh = async (agentToken: AgentToken | null = token(ORCHESTRATOR)) => {
    registry = new AgentRegistry()
    for (const agent of [alpha, beta, gamma]) await registry.register(agent.url)
    orchestrator = new Orchestrator({
      registry,
      ...(agentToken !== null && { token: agentToken }),
      client: { timeoutMs: 5_000 },
    })
  }

  afterEach(() => registry.close())

  afterAll(async () => {
    await Promise.all([alpha, beta, gamma].map((agent) => agent.stop().catch(() => undefined)))
  })

  it('sends the task to the first healthy agent that declares the skill and returns its artifacts', async () => {
    await fresh()
    const progress: DelegationProgress[] = []
    const result = await orchestrator.delegate(
      'translate',
      { text: 'hello' },
      { onProgress: (p) => void progress.push(p) },
    )
    expect(result.agent).toMatchObject({ name: 'Alpha', url: alpha.url })
    expect(result.task?.status.state).toBe('completed')
    expect(result.artifacts.map((a) => textOf(a.parts))).toEqual(['Alpha: HELLO'])
    expect(result.failures).toEqual([])
    expect(progress[0]).toMatchObject({ kind: 'agent', agent: { name: 'Alpha' } })
    expect(progress).toContainEqual(
      expect.objectContaining({ kind: 'status', state: 'working', text: 'Alpha is translating' }),
    )
    expect(progress).toContainEqual(expect.objectContaining({ kind: 'artifact' }))
  })

  it('delegates each skill to an agent that declares it', async () => {
    await fresh()
    const result = await orchestrator.delegate('count', { text: 'one two three' })
    expect(result.agent.name).toBe('Gamma')
    expect(textOf(result.artifacts[0]?.parts)).toBe('3')
  })

  it('fails over to the next agent when the first one is stopped, saying why it skipped it', async () => {
    await fresh()
    await alpha.stop()
    try {
      const result = await orchestrator.delegate('translate', { text: 'hello' })
      expect(result.agent.name).toBe('Beta')
      expect(result.artifacts.map((a) => textOf(a.parts))).toEqual(['Beta: HELLO'])
      expect(result.failures).toHaveLength(1)
      expect(result.failures[0]?.agent.name).toBe('Alpha')
      expect(result.failures[0]?.reason).toContain('ECONNREFUSED')
    } finally {
      await alpha.restart()
    }
  })

  it('throws AllAgentsFailedError with each agent and its reason when none can be reached', async () => {
    await fresh()
    await Promise.all([alpha.stop(), beta.stop()])
    try {
      const error = await orchestrator.delegate('translate', { text: 'x' }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(AllAgentsFailedError)
      const failures = (error as AllAgentsFailedError).failures
      expect(failures.map((f) => f.agent.name)).toEqual(['Alpha', 'Beta'])
      expect((error as Error).message).toMatch(
        /^Every agent for skill "translate" failed: Alpha \(/,
      )
    } finally {
      await Promise.all([alpha.restart(), beta.restart()])
    }
  })

  it('fails over when the live card no longer declares the skill', async () => {
    await fresh()
    await alpha.stop()
    await alpha.restart([askSkill])
    try {
      const result = await orchestrator.delegate('translate', { text: 'hi' })
      expect(result.agent.name).toBe('Beta')
      expect(result.failures[0]?.reason).toBe(
        'The agent does not declare skill "translate"; it offers: ask',
      )
    } finally {
      await alpha.stop()
      await alpha.restart([translateSkill('Alpha'), askSkill])
    }
  })

  it.each([
    [
      'answers what is not A2A',
      200,
      { hello: 1 },
      'The reply to SendStreamingMessage has neither result nor error',
    ],
    [
      'answers a JSON-RPC internal error',
      200,
      { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal kaboom' } },
      'Internal kaboom',
    ],
    [
      'is busy, as 0.3 says it (HTTP 200)',
      200,
      {
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32029, message: 'You already have 1 running task' },
      },
      'You already have 1 running task',
    ],
  ])('fails over when an agent %s', async (_name, status, reply, reason) => {
    // Serves Alpha's card (under its own address), and answers every call with `reply`.
    const broken = await brokenAgent(alpha.url, status, reply)
    registry = new AgentRegistry()
    await registry.register(broken.url)
    await registry.register(beta.url)
    orchestrator = new Orchestrator({
      registry,
      token: token(ORCHESTRATOR),
      client: { timeoutMs: 5_000 },
    })
    try {
      const result = await orchestrator.delegate('translate', { text: 'hello' })
      expect(result.agent.name).toBe('Beta')
      expect(result.failures.map((f) => [f.agent.url, f.reason])).toEqual([[broken.url, reason]])
    } finally {
      await broken.close()
    }
  })

  it('cancels the delegated task at its agent when the caller aborts', async () => {
    const delta = await startTestAgent('Delta', [waitSkill])
    registry = new AgentRegistry()
    await registry.register(delta.url)
    orchestrator = new Orchestrator({ registry, token: token(ORCHESTRATOR) })
    try {
      const controller = new AbortController()
      let taskId: string | undefined
      const delegated = orchestrator.delegate(
        'wait',
        { text: 'go' },
        {
          signal: controller.signal,
          onProgress: (progress) => {
            if (progress.kind !== 'status') return
            taskId = progress.taskId
            controller.abort(new Error('the caller gave up'))
          },
        },
      )
      await expect(delegated).rejects.toThrow('the caller gave up')
      const agent = await A2AClient.connect(delta.url, { token: token(ORCHESTRATOR) })
      await vi.waitFor(
        async () => expect((await agent.get(taskId!)).status.state).toBe('canceled'),
        {
          timeout: 3_000,
        },
      )
    } finally {
      await delta.stop()
    }
  })

  /** Runs `check` with Alpha failing every translation, then puts Alpha back. */
  const withAlphaRefusing = async (check: () => Promise<void>) => {
    await alpha.stop()
    await alpha.restart([refuseSkill])
    try {
      await check()
    } finally {
      await alpha.stop()
      await alpha.restart([translateSkill('Alpha'), askSkill])
    }
  }

  /** A translation delegated now ends with Alpha's failure, and Beta is never asked. */
  const expectAlphasFailure = async () => {
    const betaReads = beta.cardReads()
    const error = await orchestrator.delegate('translate', { text: 'hi' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DelegatedTaskFailedError)
    expect((error as Error).message).toBe(
      'Alpha ended the task failed: I do not translate on Mondays',
    )
    expect((error as DelegatedTaskFailedError).task.status.state).toBe('failed')
    expect(beta.cardReads()).toBe(betaReads)
  }

  it('does not fail over when an agent ends the task failed: that is its answer', async () => {
    await fresh()
    await withAlphaRefusing(expectAlphasFailure)
  })

  it('takes a task the stream showed failed as the answer when the agent cannot be read after it (it shut down)', async () => {
    await fresh()
    // Every call reaches the agents, but reading the task back once its stream has ended
    // fails, as it does at an agent that ended the task and shut down.
    const goneAfterStream: typeof fetch = async (input, init) => {
      const body = typeof init?.body === 'string' ? init.body : ''
      if (/"method":"(GetTask|tasks\/get)"/.test(body)) throw new TypeError('fetch failed')
      return fetch(input, init)
    }
    orchestrator = new Orchestrator({
      registry,
      token: token(ORCHESTRATOR),
      client: { timeoutMs: 5_000, fetch: goneAfterStream },
    })
    await withAlphaRefusing(expectAlphasFailure)
  })

  it('hands the agent question to onInputRequired and continues the task with the answer', async () => {
    await fresh()
    const questions: string[] = []
    const result = await orchestrator.delegate(
      'ask',
      { text: 'paint it' },
      {
        onInputRequired: (question) => {
          questions.push(question.text)
          return Promise.resolve('blue')
        },
      },
    )
    expect(questions).toEqual(['Which colour?'])
    expect(result.task?.status.state).toBe('completed')
    expect(textOf(result.artifacts[0]?.parts)).toBe('colour: blue')
  })

  it('without onInputRequired, a question is an InputRequiredError that resume() can answer', async () => {
    await fresh()
    const error = await orchestrator.delegate('ask', { text: 'paint it' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InputRequiredError)
    const { agent, task } = error as InputRequiredError
    expect((error as Error).message).toBe(
      'Alpha asks for input ("Which colour?") and no onInputRequired callback was given',
    )
    expect(task.status.state).toBe('input-required')
    const resumed = await orchestrator.resume(agent, task, 'green')
    expect(textOf(resumed.artifacts[0]?.parts)).toBe('colour: green')
  })

  it('throws NoAgentForSkillError when no healthy agent declares the skill', async () => {
    await fresh()
    const error = await orchestrator.delegate('sing', { text: 'la' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(NoAgentForSkillError)
    expect((error as Error).message).toBe('No registered agent declares skill "sing"')
  })

  it('names the agents that declare the skill but are unhealthy, and why', async () => {
    const delta = await startTestAgent('Delta', [waitSkill])
    registry = new AgentRegistry({ unhealthyAfter: 1, checkIntervalMs: 1, checkTimeoutMs: 1000 })
    await registry.register(delta.url)
    await delta.stop()
    await new Promise((resolve) => setTimeout(resolve, 5))
    await registry.checkDue()
    orchestrator = new Orchestrator({ registry, token: token(ORCHESTRATOR) })
    const error = await orchestrator.delegate('wait', { text: 'x' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(NoAgentForSkillError)
    expect((error as Error).message).toMatch(
      new RegExp(
        `^No healthy registered agent declares skill "wait": Delta \\(${delta.url}\\) is unhealthy: .+`,
      ),
    )
  })

  it('polls an agent whose card does not stream (waitForCompletion)', async () => {
    // The same agent, its card read through a fetch that says it does not stream.
    const noStreaming: typeof fetch = async (input, init) => {
      const response = await fetch(input, init)
      const url = input instanceof Request ? input.url : input.toString()
      if (!url.includes('/.well-known/')) return response
      const card = (await response.json()) as { capabilities?: Record<string, unknown> }
      card.capabilities = { ...card.capabilities, streaming: false }
      return Response.json(card, { status: response.status })
    }
    const requests: string[] = []
    const recording: typeof fetch = (input, init) => {
      requests.push(
        String((init?.body as string | undefined) ?? '').match(/"method":"(\w+)"/)?.[1] ?? 'GET',
      )
      return noStreaming(input, init)
    }
    registry = new AgentRegistry()
    await registry.register(gamma.url)
    orchestrator = new Orchestrator({
      registry,
      token: token(ORCHESTRATOR),
      client: { fetch: recording },
    })
    const result = await orchestrator.delegate('count', { text: 'a b' })
    expect(textOf(result.artifacts[0]?.parts)).toBe('2')
    expect(requests).toContain('SendMessage')
    expect(requests).not.toContain('SendStreamingMessage')
  })

  describe('the token it calls agents with', () => {
    it('asks the provider for each agent before each request, and the agent sees the orchestrator as its caller', async () => {
      const asked: string[] = []
      await fresh((agent) => {
        asked.push(agent.name)
        return token({ ...ORCHESTRATOR, sub: `orchestrator-for-${agent.name}` })
      })
      const result = await orchestrator.delegate('count', { text: 'one two' })
      expect(textOf(result.artifacts[0]?.parts)).toBe('2')
      // The card read, the stream and the final read: each with a fresh token.
      expect(asked.length).toBeGreaterThanOrEqual(3)
      expect(new Set(asked)).toEqual(new Set(['Gamma']))
      // The task belongs to the identity the orchestrator used, and to no one else.
      const taskId = result.task!.id
      const owner = await A2AClient.connect(gamma.url, {
        token: token({ ...ORCHESTRATOR, sub: 'orchestrator-for-Gamma' }),
      })
      expect((await owner.get(taskId)).status.state).toBe('completed')
      const stranger = await A2AClient.connect(gamma.url, { token: token({ sub: 'someone' }) })
      await expect(stranger.get(taskId)).rejects.toMatchObject({ reason: 'TASK_NOT_FOUND' })
    })

    it('fails over when an agent refuses the token, saying why', async () => {
      await fresh((agent) =>
        agent.name === 'Alpha'
          ? token(ORCHESTRATOR, { key: 'another-secret-0123456789-abcdefghijklmnopqrstu' })
          : token(ORCHESTRATOR),
      )
      const result = await orchestrator.delegate('translate', { text: 'hello' })
      expect(result.agent.name).toBe('Beta')
      expect(result.failures.map((f) => f.agent.name)).toEqual(['Alpha'])
      expect(result.failures[0]?.reason).toContain('The token signature is invalid')
      expect(result.failures[0]?.error).toMatchObject({ status: 401 })
    })

    it('fails over when the token lacks the skill scope at that agent (403)', async () => {
      await fresh((agent) =>
        token({
          sub: 'orchestrator',
          scopes: agent.name === 'Alpha' ? ['a2a:invoke', 'skill:ask'] : ORCHESTRATOR.scopes,
        }),
      )
      const result = await orchestrator.delegate('translate', { text: 'hello' })
      expect(result.agent.name).toBe('Beta')
      expect(result.failures[0]?.reason).toContain('skill:translate')
    })

    it('without a token, every protected agent refuses, and the error says so', async () => {
      await fresh(null)
      const error = await orchestrator.delegate('translate', { text: 'x' }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(AllAgentsFailedError)
      const { failures } = error as AllAgentsFailedError
      expect(failures.map((f) => f.agent.name)).toEqual(['Alpha', 'Beta'])
      for (const failure of failures) expect(failure.error).toMatchObject({ status: 401 })
    })

    it('takes a per-delegation token in place of the orchestrator one', async () => {
      await fresh(null)
      const result = await orchestrator.delegate(
        'count',
        { text: 'a b c' },
        { token: token({ ...ORCHESTRATOR, sub: 'per-call' }) },
      )
      expect(textOf(result.artifacts[0]?.parts)).toBe('3')
      const owner = await A2AClient.connect(gamma.url, {
        token: token({ ...ORCHESTRATOR, sub: 'per-call' }),
      })
      expect((await owner.get(result.task!.id)).status.state).toBe('completed')
    })
  })
})

/**
 * An agent whose card is `real`'s (under its own address) and whose every other answer is
 * `reply` with HTTP `status`.
 */
async function brokenAgent(real: string, status: number, reply: unknown) {
  const server = createServer((request, response) => {
    void (async () => {
      if (request.url?.startsWith('/.well-known/')) {
        const card = await fetch(`${real}${request.url}`, {
          headers: { 'a2a-version': String(request.headers['a2a-version'] ?? '') },
        })
        response.writeHead(card.status, { 'content-type': 'application/json' })
        response.end((await card.text()).replaceAll(real, url))
        return
      }
      request.resume()
      response.writeHead(status, { 'content-type': 'application/json' })
      response.end(JSON.stringify(reply))
    })()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { url, close: () => new Promise((resolve) => server.close(resolve)) }
}
