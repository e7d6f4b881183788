/**
 * Orchestrator.delegate against real agents on real ports, found through an AgentRegistry:
 * delegation by skill, failover when an agent is down, no failover on a clear task failure,
 * questions answered through onInputRequired, and the typed errors.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { AgentRegistry } from '../../src/registry/registry.js'
import {
  AllAgentsFailedError,
  DelegatedTaskFailedError,
  InputRequiredError,
  NoAgentForSkillError,
} from '../../src/orchestrator/errors.js'
import { Orchestrator } from '../../src/orchestrator/orchestrator.js'
import type { DelegationProgress } from '../../src/orchestrator/orchestrator.js'
import { textOf } from '../client/agents.js'
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

  // A registry without running checks: the agents stay "healthy" as registered, so failover
  // (not the health checks) is what finds a stopped one.
  const fresh = async () => {
    registry = new AgentRegistry()
    for (const agent of [alpha, beta, gamma]) await registry.register(agent.url)
    orchestrator = new Orchestrator({ registry, client: { timeoutMs: 5_000 } })
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

  it('does not fail over when an agent ends the task failed: that is its answer', async () => {
    await fresh()
    await alpha.stop()
    await alpha.restart([refuseSkill])
    const betaReads = beta.cardReads()
    try {
      const error = await orchestrator
        .delegate('translate', { text: 'hi' })
        .catch((e: unknown) => e)
      expect(error).toBeInstanceOf(DelegatedTaskFailedError)
      expect((error as Error).message).toBe(
        'Alpha ended the task failed: I do not translate on Mondays',
      )
      expect((error as DelegatedTaskFailedError).task.status.state).toBe('failed')
      expect(beta.cardReads()).toBe(betaReads)
    } finally {
      await alpha.stop()
      await alpha.restart([translateSkill('Alpha'), askSkill])
    }
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
    expect((error as Error).message).toBe('No healthy registered agent declares skill "sing"')
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
    orchestrator = new Orchestrator({ registry, client: { fetch: recording } })
    const result = await orchestrator.delegate('count', { text: 'a b' })
    expect(textOf(result.artifacts[0]?.parts)).toBe('2')
    expect(requests).toContain('SendMessage')
    expect(requests).not.toContain('SendStreamingMessage')
  })
})
