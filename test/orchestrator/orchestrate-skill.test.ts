/**
 * The bundled `orchestrate` skill: a server built with BUNDLED_SKILLS=orchestrate is itself an
 * orchestrator reachable over A2A. A2AClient calls it; it delegates to the agents registered
 * through its own /registry/agents API, calling them with its own token (ORCHESTRATOR_AGENT_TOKEN
 * or _FILE), never its caller's.
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { A2AClient } from '../../src/client/client.js'
import type { RemoteTask } from '../../src/client/model.js'
import { followTask } from '../../src/client/stream-task.js'
import { configFrom, ConfigError } from '../../src/config.js'
import type { DataPart } from '../../src/domain/model.js'
import { defineSkill } from '../../src/skills/skill.js'
import { freePort, textOf, waitSkill } from '../client/agents.js'
import { testApp } from '../helpers/app.js'
import { bearer, token } from '../helpers/auth.js'
import { askSkill, countSkill, startTestAgent, translateSkill } from '../registry/agents.js'
import type { TestAgent } from '../registry/agents.js'

/** A task as ListTasks 1.0 lists it, as far as these tests read it. */
interface RemoteTaskRow {
  status: { state: string }
}

/** Who the orchestrator is at the agents it calls. */
const ORCHESTRATOR = { sub: 'orchestrator', scopes: ['a2a:invoke', 'skill:*'] }
const ADMIN = { authorization: bearer({ sub: 'operator', scopes: ['a2a:admin'] }) }

async function registerAgents(orchestrator: FastifyInstance, agents: TestAgent[]): Promise<void> {
  for (const agent of agents) {
    const reply = await orchestrator.inject({
      method: 'POST',
      url: '/registry/agents',
      payload: { url: agent.url },
      headers: ADMIN,
    })
    expect(reply.statusCode).toBe(201)
  }
}

/** A seed send of `orchestrate` through `app.inject` (testApp's default caller). */
const orchestrateOver = (app: FastifyInstance, delegateSkillId: string, text: string) =>
  sendOver(app, '/tasks/send', {
    id: randomUUID(),
    message: {
      role: 'user',
      parts: [{ type: 'text', text }],
      metadata: { skillId: 'orchestrate', delegateSkillId },
    },
  })

/** The answer to a task that asks for input, in the seed dialect. */
const answerOver = (app: FastifyInstance, taskId: string, text: string) =>
  sendOver(app, `/tasks/${taskId}/send`, {
    message: { role: 'user', parts: [{ type: 'text', text }] },
  })

async function sendOver(app: FastifyInstance, url: string, payload: object) {
  const reply = await app.inject({ method: 'POST', url, payload })
  expect(reply.statusCode, reply.body).toBe(200)
  return reply.json<{
    id: string
    status: { state: string; message?: { parts: { text?: string }[] } }
    artifacts?: { parts: unknown[] }[]
  }>()
}

/** `orchestrate` sent through `client`, delegating `text` to the skill `delegateSkillId`. */
const delegate = async (client: A2AClient, delegateSkillId: string, text: string) =>
  (await client.send({
    skill: 'orchestrate',
    text,
    data: { delegateSkillId },
  })) as RemoteTask

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
      ORCHESTRATOR_AGENT_TOKEN: token(ORCHESTRATOR),
    })
    await orchestrator.listen({ host: '127.0.0.1', port })
    await registerAgents(orchestrator, [alpha, gamma])
    client = await A2AClient.connect(url, { token: token() })
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
    const result = await delegate(client, 'translate', 'hello')
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

  it('cancels the delegated task when its own task is canceled', async () => {
    const delta = await startTestAgent('Delta', [waitSkill])
    await registerAgents(orchestrator, [delta])
    const remoteTasks = async () => {
      const reply = await fetch(`${delta.url}/a2a/jsonrpc`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'a2a-version': '1.0',
          authorization: bearer(ORCHESTRATOR),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} }),
      })
      const { result } = (await reply.json()) as { result: { tasks: RemoteTaskRow[] } }
      return result.tasks.map((task) => task.status.state)
    }
    try {
      const sent = await client.send(
        { skill: 'orchestrate', text: 'go', data: { delegateSkillId: 'wait' } },
        { blocking: false },
      )
      if (sent.kind !== 'task') throw new Error('expected a task')
      await vi.waitFor(async () => expect(await remoteTasks()).toEqual(['TASK_STATE_WORKING']), {
        timeout: 3_000,
      })
      expect((await client.cancel(sent.id)).status.state).toBe('canceled')
      await vi.waitFor(async () => expect(await remoteTasks()).toEqual(['TASK_STATE_CANCELED']), {
        timeout: 3_000,
      })
    } finally {
      await delta.stop()
    }
  })

  it('cancels the delegated task that waits for an answer when its own waiting task is canceled', async () => {
    const first = await delegate(client, 'ask', 'paint the gate')
    expect(first.status.state).toBe('input-required')
    const waiting = first.status.message?.parts.find(
      (part): part is DataPart => part.kind === 'data',
    )?.data.delegation as { taskId: string }
    const asOrchestrator = await A2AClient.connect(alpha.url, { token: token(ORCHESTRATOR) })
    expect((await asOrchestrator.get(waiting.taskId)).status.state).toBe('input-required')

    expect((await client.cancel(first.id)).status.state).toBe('canceled')
    await vi.waitFor(
      async () => expect((await asOrchestrator.get(waiting.taskId)).status.state).toBe('canceled'),
      { timeout: 3_000 },
    )
  })

  it('says which agent lost the task when the answer comes after that agent restarted', async () => {
    const first = await delegate(client, 'ask', 'paint the porch')
    expect(first.status.state).toBe('input-required')
    // Alpha keeps its tasks in memory: a restart forgets the one that asked.
    await alpha.stop()
    await alpha.restart()
    const answered = (await client.continue(first, { text: 'red' })) as RemoteTask
    expect(answered.status.state).toBe('failed')
    expect(textOf(answered.status.message?.parts)).toBe(
      `Alpha (${alpha.url}) no longer has the task that asked the question (it restarted, or the task expired): send the request again as a new task`,
    )
  })

  it('asks again when the agent asks again after an answer, and its failure is its own', async () => {
    const picky = defineSkill({
      id: 'picky',
      name: 'Picky',
      description: 'wants blue, gives up on grey',
      tags: [],
      async execute(ctx) {
        if (ctx.input.text === 'grey') return ctx.fail('grey is no colour')
        if (ctx.input.text !== 'blue') return ctx.requestInput('Which colour? Only blue will do')
        return ctx.complete('blue it is')
      },
    })
    const delta = await startTestAgent('Delta', [picky])
    await registerAgents(orchestrator, [delta])
    try {
      const first = await delegate(client, 'picky', 'paint')
      expect(first.status.state).toBe('input-required')
      const again = (await client.continue(first, { text: 'red' })) as RemoteTask
      expect(again.status.state).toBe('input-required')
      expect(textOf(again.status.message?.parts)).toBe('Which colour? Only blue will do')
      const failed = (await client.continue(again, { text: 'grey' })) as RemoteTask
      expect(failed.status.state).toBe('failed')
      expect(textOf(failed.status.message?.parts)).toBe(
        'Delta ended the task failed: grey is no colour',
      )
    } finally {
      await delta.stop()
    }
  })

  it('asks its caller the agent question and passes the answer on', async () => {
    const first = await delegate(client, 'ask', 'paint the fence')
    expect(first.status.state).toBe('input-required')
    expect(textOf(first.status.message?.parts)).toBe('Which colour?')
    const answered = (await client.continue(first, { text: 'red' })) as RemoteTask
    expect(answered.status.state).toBe('completed')
    expect(textOf(answered.artifacts[0]?.parts)).toBe('colour: red')
  })

  it('passes on a message whose only data was delegateSkillId: the agent decides (Gamma asks)', async () => {
    // What is left of the data part, {}, goes to Gamma, which asks for words; the answer is passed on.
    let first: RemoteTask | undefined
    for await (const event of client.stream({
      skill: 'orchestrate',
      data: { delegateSkillId: 'count' },
    })) {
      first = followTask(first, event)
    }
    const said = (task: RemoteTask | undefined) => [
      task?.status.state,
      textOf(task?.status.message?.parts),
    ]
    expect(said(first)).toEqual(['input-required', 'Which words should I count?'])
    const answered = (await client.continue(first!, { text: 'a b c' })) as RemoteTask
    expect(said(answered)).toEqual(['completed', 'Done by Gamma'])
    expect(textOf(answered.artifacts[0]?.parts)).toBe('3')
  })

  it('rejects a message that names no skill to delegate to', async () => {
    const result = (await client.send({ skill: 'orchestrate', text: 'hello' })) as RemoteTask
    expect(result.status.state).toBe('rejected')
    expect(textOf(result.status.message?.parts)).toBe(
      'Name the skill to delegate to as "delegateSkillId" in a data part or the message metadata',
    )
  })

  it('fails the task, saying why, when no registered agent declares the skill', async () => {
    const result = await delegate(client, 'sing', 'la')
    expect(result.status.state).toBe('failed')
    expect(textOf(result.status.message?.parts)).toBe('No registered agent declares skill "sing"')
  })

  it('calls the agent as itself: the delegated task is the orchestrator one, not its caller', async () => {
    const first = await delegate(client, 'ask', 'paint the shed')
    expect(first.status.state).toBe('input-required')
    // Every request Alpha got came with the orchestrator's token; the caller's went nowhere.
    expect(new Set(alpha.callers())).toEqual(new Set([null, 'orchestrator']))
    const waiting = first.status.message?.parts.find(
      (part): part is DataPart => part.kind === 'data',
    )?.data.delegation as { taskId: string }
    const asCaller = await A2AClient.connect(alpha.url, { token: token() })
    await expect(asCaller.get(waiting.taskId)).rejects.toMatchObject({
      reason: 'TASK_NOT_FOUND',
    })
    const asOrchestrator = await A2AClient.connect(alpha.url, { token: token(ORCHESTRATOR) })
    expect((await asOrchestrator.get(waiting.taskId)).status.state).toBe('input-required')
    await client.cancel(first.id)
  })
})

describe('the orchestrate skill token settings', () => {
  let gamma: TestAgent
  let dir: string

  beforeAll(async () => {
    gamma = await startTestAgent('Gamma', [countSkill, askSkill])
    dir = mkdtempSync(join(tmpdir(), 'orchestrator-token-'))
  })

  afterAll(async () => {
    await gamma.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  const hub = (env: Record<string, string>) =>
    testApp({ AGENT_NAME: 'Hub', BUNDLED_SKILLS: 'orchestrate', ...env })

  /** The task's final state and status text, as its caller sees them. */
  const said = (task: Awaited<ReturnType<typeof orchestrateOver>>) => [
    task.status.state,
    (task.status.message?.parts ?? []).flatMap((part) => part.text ?? []).join('\n'),
  ]

  it('without a token, fails the task with the agent refusal and the settings that give one', async () => {
    const app = await hub({})
    try {
      await registerAgents(app, [gamma])
      const task = await orchestrateOver(app, 'count', 'one two')
      expect(said(task)).toEqual([
        'failed',
        `Every agent for skill "count" failed: Gamma (${gamma.url}): Authentication required: ` +
          'send "Authorization: Bearer <token>" (the orchestrate skill calls registered agents ' +
          'with the token in ORCHESTRATOR_AGENT_TOKEN or ORCHESTRATOR_AGENT_TOKEN_FILE; neither ' +
          'is set)',
      ])
    } finally {
      await app.close()
    }
  })

  it('with ORCHESTRATOR_AGENT_TOKEN an agent forbids, fails the task saying it refused that token', async () => {
    const app = await hub({
      ORCHESTRATOR_AGENT_TOKEN: token({ ...ORCHESTRATOR, scopes: ['a2a:invoke', 'skill:ask'] }),
    })
    try {
      await registerAgents(app, [gamma])
      const task = await orchestrateOver(app, 'count', 'one two')
      expect(said(task)).toEqual([
        'failed',
        `Every agent for skill "count" failed: Gamma (${gamma.url}): The token lacks the scope ` +
          'skill:count needed to use skill "count" (the agent refused the token in ' +
          'ORCHESTRATOR_AGENT_TOKEN, which the orchestrate skill calls registered agents with)',
      ])
    } finally {
      await app.close()
    }
  })

  it('with ORCHESTRATOR_AGENT_TOKEN_FILE rotated to a token the agent refuses, fails the answered task saying so', async () => {
    const file = join(dir, 'refused')
    writeFileSync(file, token(ORCHESTRATOR))
    const app = await hub({ ORCHESTRATOR_AGENT_TOKEN_FILE: file })
    try {
      await registerAgents(app, [gamma])
      const question = await orchestrateOver(app, 'ask', 'paint the gate')
      expect(said(question)).toEqual(['input-required', 'Which colour?'])
      writeFileSync(file, token(ORCHESTRATOR, { key: 'another-secret-0123456789-abcdefghijklmn' }))
      const task = await answerOver(app, question.id, 'blue')
      expect(said(task)).toEqual([
        'failed',
        `Gamma (${gamma.url}) could not take the answer: ` +
          'The token signature is invalid: it was not signed with the key this agent verifies with (the agent refused the token in ' +
          'ORCHESTRATOR_AGENT_TOKEN_FILE, which the orchestrate skill calls registered agents with)',
      ])
    } finally {
      await app.close()
    }
  })

  it('reads ORCHESTRATOR_AGENT_TOKEN_FILE before each call, so a rotated token is used at once', async () => {
    const file = join(dir, 'token')
    writeFileSync(file, `${token({ ...ORCHESTRATOR, sub: 'first' })}\n`)
    const app = await hub({ ORCHESTRATOR_AGENT_TOKEN_FILE: file })
    try {
      await registerAgents(app, [gamma])
      const delegateAs = async () => {
        const before = gamma.callers().length
        const task = await orchestrateOver(app, 'count', 'a b c')
        expect(task.status.state).toBe('completed')
        expect(task.artifacts?.[0]?.parts).toEqual([{ type: 'text', text: '3' }])
        return new Set(gamma.callers().slice(before))
      }
      expect(await delegateAs()).toEqual(new Set(['first']))
      writeFileSync(file, token({ ...ORCHESTRATOR, sub: 'second' }))
      expect(await delegateAs()).toEqual(new Set(['second']))
      // A file gone for a moment: the last token read is used until it is back.
      rmSync(file)
      expect(await delegateAs()).toEqual(new Set(['second']))
    } finally {
      await app.close()
    }
  })

  it('tries the next agent once one has not answered a call within ORCHESTRATOR_CALL_TIMEOUT_MS', async () => {
    // An agent that serves a card (Gamma's, under its own name and URL) and never answers a call.
    const silent = createServer((request, response) => {
      if (request.method !== 'GET') return
      const version = request.headers['a2a-version']
      void fetch(`${gamma.url}${request.url}`, {
        headers: typeof version === 'string' ? { 'a2a-version': version } : {},
      }).then(async (reply) => {
        const card = (await reply.text()).replaceAll(gamma.url, silentUrl)
        response.writeHead(reply.status, { 'content-type': 'application/json' })
        response.end(card.replaceAll('"Gamma"', '"Slowpoke"'))
      })
    })
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`
    const app = await hub({
      ORCHESTRATOR_AGENT_TOKEN: token(ORCHESTRATOR),
      ORCHESTRATOR_CALL_TIMEOUT_MS: '300',
    })
    try {
      await registerAgents(app, [{ url: silentUrl } as TestAgent, gamma])
      const started = Date.now()
      const task = await orchestrateOver(app, 'count', 'a b c')
      expect(task.status.state).toBe('completed')
      expect(task.artifacts?.[0]?.parts).toEqual([{ type: 'text', text: '3' }])
      // Far sooner than the client's own 30 s.
      expect(Date.now() - started).toBeLessThan(10_000)
    } finally {
      await app.close()
      silent.closeAllConnections()
      silent.close()
    }
  })

  it('refuses to start with an unreadable token file, or with both settings', async () => {
    await expect(hub({ ORCHESTRATOR_AGENT_TOKEN_FILE: join(dir, 'missing') })).rejects.toThrow(
      ConfigError,
    )
    const error = await hub({ ORCHESTRATOR_AGENT_TOKEN_FILE: join(dir, 'missing') }).catch(
      (e: unknown) => e,
    )
    expect((error as ConfigError).message).toContain(
      `ORCHESTRATOR_AGENT_TOKEN_FILE: cannot read a token from "${join(dir, 'missing')}"`,
    )
    expect(() =>
      configFrom({ ORCHESTRATOR_AGENT_TOKEN: 'x', ORCHESTRATOR_AGENT_TOKEN_FILE: 'y' }),
    ).toThrow('set ORCHESTRATOR_AGENT_TOKEN or ORCHESTRATOR_AGENT_TOKEN_FILE, not both')
  })
})
