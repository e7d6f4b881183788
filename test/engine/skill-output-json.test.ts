/**
 * A skill in JavaScript may hand over what JSON cannot carry (a BigInt, a cycle, a Map) or a
 * progress report that is not text. Its own call fails, naming the field; the task never stores
 * the value, so it stays readable in every dialect and in lists; on Redis the turn runs once
 * and is not taken for a store failure.
 */
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import type { Skill, SkillOutcome } from '../../src/skills/skill.js'
import { defineSkill } from '../../src/skills/skill.js'
import { echoSkill } from '../../src/skills/echo/index.js'
import { testApp } from '../helpers/app.js'
import { sendBody } from '../helpers/bodies.js'
import { rpc } from '../helpers/jsonrpc.js'
import { keptLog } from '../helpers/log.js'
import { useBackends } from '../helpers/redis.js'

const backends = useBackends()
let app: FastifyInstance | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

const circular = () => {
  const value: Record<string, unknown> = { a: 1 }
  value.self = value
  return value
}

/** A skill that tries `report` and completes with what its call threw (or "accepted"). */
function trying(id: string, report: (ctx: Parameters<Skill['execute']>[0]) => Promise<unknown>) {
  return defineSkill({
    ...echoSkill,
    id,
    async execute(ctx) {
      try {
        await report(ctx)
        return ctx.complete('accepted')
      } catch (error) {
        return ctx.fail(`${(error as Error).name}: ${(error as Error).message}`)
      }
    },
  })
}

const skills = [
  trying('bigint', (ctx) => ctx.emitArtifact({ parts: [{ kind: 'data', data: { n: 10n } }] })),
  trying('circular', (ctx) => ctx.emitArtifact({ parts: [{ kind: 'data', data: circular() }] })),
  trying('map-metadata', (ctx) =>
    ctx.emitArtifact({
      parts: [{ kind: 'text', text: 'hi' }],
      metadata: { seen: new Map([['k', 1]]) },
    }),
  ),
  trying('number-progress', (ctx) => ctx.progress(42 as unknown as string)),
]

describe.each(backends)('what a skill hands over, %s', (_name, settings) => {
  it("fails the skill's own call, naming the field, and stores nothing of it", async () => {
    app = await testApp(settings(), { skills })
    const expected: Record<string, string> = {
      bigint:
        'TypeError: emitArtifact: parts.0.data.n: is a BigInt, which JSON cannot carry; convert it (String(value), or Number(value) when it fits)',
      circular:
        'TypeError: emitArtifact: parts.0.data.self: refers back to an object that contains it (a cycle), which JSON cannot carry',
      'map-metadata':
        'TypeError: emitArtifact: metadata.seen: is a Map, which JSON writes as {}; convert it (Object.fromEntries(value))',
      'number-progress': 'TypeError: progress: the text must be a string (got number)',
    }
    for (const [skillId, message] of Object.entries(expected)) {
      const sent = await app.inject({
        method: 'POST',
        url: '/tasks/send',
        payload: sendBody('hi', { metadata: { skillId } }),
      })
      expect(sent.statusCode).toBe(200)
      const task = sent.json()
      expect(task).toMatchObject({
        status: { state: 'failed', message: { parts: [{ type: 'text', text: message }] } },
        artifacts: [],
      })
      // Readable in every dialect.
      expect((await app.inject(`/tasks/${task.id}`)).statusCode).toBe(200)
      expect((await rpc(app, 'GetTask', { id: task.id })).body.result.status.state).toBe(
        'TASK_STATE_FAILED',
      )
      expect((await app.inject(`/a2a/rest/tasks/${task.id}`)).statusCode).toBe(200)
    }
    const listed = await rpc(app, 'ListTasks', { includeArtifacts: true })
    expect(listed.body.result.tasks).toHaveLength(4)
  })

  it('fails the task once, saying why in the log, when the skill lets the error go', async () => {
    let runs = 0
    const careless = defineSkill({
      ...echoSkill,
      id: 'careless',
      async execute(ctx): Promise<SkillOutcome> {
        runs++
        await ctx.emitArtifact({ parts: [{ kind: 'data', data: { n: 10n } }] })
        return ctx.complete()
      },
    })
    const { lines, logger } = keptLog()
    app = await testApp(settings(), { skills: [careless], logger })
    const sent = await app.inject({ method: 'POST', url: '/tasks/send', payload: sendBody('hi') })
    expect(sent.json()).toMatchObject({
      status: {
        state: 'failed',
        message: { parts: [{ text: 'The skill failed with an internal error' }] },
      },
    })
    expect(runs).toBe(1)
    const threw = lines.find((line) => line.msg === 'skill threw')
    expect(threw).toMatchObject({ skillId: 'careless', taskId: sent.json().id })
    expect((threw?.err as { message: string }).message).toMatch(/parts\.0\.data\.n: is a BigInt/)
    expect(JSON.stringify(lines)).not.toMatch(/store failure|Do not know how to serialize/)
  })

  it('fails the task when execute returns what JSON cannot carry', async () => {
    const returning = defineSkill({
      ...echoSkill,
      id: 'returning',
      execute: async () => ({
        state: 'completed',
        message: [{ kind: 'data', data: { n: 10n } }],
      }),
    })
    const { lines, logger } = keptLog()
    app = await testApp(settings(), { skills: [returning], logger })
    const sent = await app.inject({ method: 'POST', url: '/tasks/send', payload: sendBody('hi') })
    expect(sent.json().status.state).toBe('failed')
    expect(lines.find((line) => line.msg.startsWith('skill returned something'))).toMatchObject({
      outcome: expect.stringMatching(/^message\.0\.data\.n: is a BigInt/),
    })
    expect((await app.inject(`/tasks/${sent.json().id}`)).statusCode).toBe(200)
  })
})
