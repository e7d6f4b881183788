/**
 * The bundled `orchestrate` skill: a server built with BUNDLED_SKILLS=orchestrate is itself an
 * orchestrator reachable over A2A. A2AClient calls it; it delegates to the agents registered
 * through its own /registry/agents API.
 */
import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { A2AClient } from '../../src/client/client.js'
import type { RemoteTask } from '../../src/client/model.js'
import { configFrom } from '../../src/config.js'
import { freePort, textOf } from '../client/agents.js'
import { testApp } from '../helpers/app.js'
import { askSkill, countSkill, startTestAgent, translateSkill } from '../registry/agents.js'
import type { TestAgent } from '../registry/agents.js'

describe('the orchestrate skill over A2A', () => {
  let alpha: TestAgent
  let gamma: TestAgent
  let orchestrator: FastifyInstance
  let client: A2AClient

  beforeAll(async () => {
    ;[alpha, gamma] = await Promise.all([
      startTestAgent('Alpha', [translateSkill('Alpha'), askSkill]),
      startTestAgent('Gamma', [countSkill]),
    ])
    const port = await freePort()
    const url = `http://127.0.0.1:${port}`
    orchestrator = await testApp({
      AGENT_NAME: 'Orchestrator',
      BUNDLED_SKILLS: 'orchestrate,echo',
      PUBLIC_URL: url,
    })
    await orchestrator.listen({ host: '127.0.0.1', port })
    for (const agent of [alpha, gamma]) {
      const reply = await orchestrator.inject({
        method: 'POST',
        url: '/registry/agents',
        payload: { url: agent.url },
      })
      expect(reply.statusCode).toBe(201)
    }
    client = await A2AClient.connect(url)
  })

  afterAll(async () => {
    await orchestrator.close()
    await Promise.all([alpha.stop(), gamma.stop()])
  })

  it('is declared on the card only when BUNDLED_SKILLS names it', async () => {
    expect(client.skill('orchestrate').tags).toEqual(['orchestration', 'delegation'])
    const plain = await testApp()
    try {
      const card = (await plain.inject({ url: '/.well-known/agent.json' })).json()
      expect(card.skills.map((s: { id: string }) => s.id)).toEqual(['review-pr', 'echo'])
    } finally {
      await plain.close()
    }
    expect(configFrom().BUNDLED_SKILLS).toEqual(['review-pr', 'echo'])
  })

  it('delegates the skill named in a data part and passes the artifacts back', async () => {
    const result = (await client.send({
      skill: 'orchestrate',
      text: 'hello',
      data: { delegateSkillId: 'translate' },
    })) as RemoteTask
    expect(result.status.state).toBe('completed')
    expect(textOf(result.status.message?.parts)).toBe('Done by Alpha')
    expect(result.artifacts).toHaveLength(1)
    expect(result.artifacts[0]).toMatchObject({
      name: 'translation',
      metadata: { delegatedTo: 'Alpha' },
    })
    expect(textOf(result.artifacts[0]?.parts)).toBe('Alpha: HELLO')
  })

  it('takes the skill from the message metadata too (in the seed dialect)', async () => {
    const reply = await orchestrator.inject({
      method: 'POST',
      url: '/tasks/send',
      payload: {
        id: randomUUID(),
        message: {
          role: 'user',
          parts: [{ type: 'text', text: 'one two three four' }],
          metadata: { skillId: 'orchestrate', delegateSkillId: 'count' },
        },
      },
    })
    expect(reply.statusCode).toBe(200)
    const task = reply.json()
    expect(task.status.state).toBe('completed')
    expect(task.artifacts[0].parts).toEqual([{ type: 'text', text: '4' }])
    expect(task.artifacts[0].metadata).toEqual({ delegatedTo: 'Gamma' })
  })

  it('streams progress that says which agent is working, then the artifact', async () => {
    const seen: string[] = []
    for await (const event of client.stream({
      skill: 'orchestrate',
      text: 'hi',
      data: { delegateSkillId: 'translate' },
    })) {
      if (event.kind === 'status-update') {
        seen.push(`${event.status.state}: ${textOf(event.status.message?.parts)}`)
      }
      if (event.kind === 'artifact-update') seen.push(`artifact: ${textOf(event.artifact.parts)}`)
    }
    expect(seen).toContain('working: Alpha is working on it')
    expect(seen).toContain('working: Alpha: Alpha is translating')
    expect(seen).toContain('artifact: Alpha: HI')
    expect(seen.at(-1)).toBe('completed: Done by Alpha')
  })

  it('asks its caller the agent question and passes the answer on', async () => {
    const first = (await client.send({
      skill: 'orchestrate',
      text: 'paint the fence',
      data: { delegateSkillId: 'ask' },
    })) as RemoteTask
    expect(first.status.state).toBe('input-required')
    expect(textOf(first.status.message?.parts)).toBe('Which colour?')
    const answered = (await client.continue(first, { text: 'red' })) as RemoteTask
    expect(answered.status.state).toBe('completed')
    expect(textOf(answered.artifacts[0]?.parts)).toBe('colour: red')
  })

  it('rejects a message that names no skill to delegate to', async () => {
    const result = (await client.send({ skill: 'orchestrate', text: 'hello' })) as RemoteTask
    expect(result.status.state).toBe('rejected')
    expect(textOf(result.status.message?.parts)).toBe(
      'Name the skill to delegate to as "delegateSkillId" in a data part or the message metadata',
    )
  })

  it('fails the task, saying why, when no registered agent declares the skill', async () => {
    const result = (await client.send({
      skill: 'orchestrate',
      text: 'la',
      data: { delegateSkillId: 'sing' },
    })) as RemoteTask
    expect(result.status.state).toBe('failed')
    expect(textOf(result.status.message?.parts)).toBe(
      'No healthy registered agent declares skill "sing"',
    )
  })
})
