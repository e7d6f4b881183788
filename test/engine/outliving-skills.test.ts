/**
 * A skill that ignores `ctx.signal` goes on after its turn was stopped (a cancel, a timeout):
 * the task is settled all the same, and the skill is made visible, in the log (named, with why
 * its turn stopped, and again when it ends) and in `a2a_skills_outliving_turn`. A skill that
 * stops on its signal is neither logged nor counted.
 */
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { inlineEngine } from '../helpers/engine.js'
import type { Message } from '../../src/domain/model.js'
import { textPart } from '../../src/domain/parts.js'
import type { Skill } from '../../src/skills/skill.js'
import { defineSkill } from '../../src/skills/skill.js'
import { keptLog } from '../helpers/log.js'
import { testApp } from '../helpers/app.js'

const OUTLIVING_AFTER_MS = 200

function engine(skills: Skill[], skillTimeoutMs = 0) {
  const { logger, lines } = keptLog()
  const engine = inlineEngine(skills, {
    skillTimeoutMs,
    log: logger,
    outlivingAfterMs: OUTLIVING_AFTER_MS,
  })
  return { ...engine, lines }
}

const userMessage = (): Message => ({
  messageId: randomUUID(),
  role: 'user',
  parts: [textPart('go')],
})

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Runs `forMs` whatever happens to its turn, reporting as it goes; says when it has ended. */
function deafSkill(forMs: number) {
  const state = { ended: false, refusedReports: 0 }
  const skill = defineSkill({
    id: 'deaf',
    name: 'Deaf',
    description: 'ignores its signal',
    tags: [],
    async execute(ctx) {
      const until = Date.now() + forMs
      while (Date.now() < until) {
        await pause(20)
        await ctx.progress('still here').catch(() => (state.refusedReports += 1))
      }
      state.ended = true
      return ctx.complete('done at last')
    },
  })
  return { skill, state }
}

/** Stops as soon as its signal says so. */
const heedfulSkill = defineSkill({
  id: 'heedful',
  name: 'Heedful',
  description: 'stops on its signal',
  tags: [],
  execute: (ctx) =>
    new Promise((_resolve, reject) =>
      ctx.signal.addEventListener('abort', () => reject(new Error('stopped'))),
    ),
})

describe('a skill that outlives its turn', () => {
  it('is logged and counted once it runs past the grace after a cancel, and again when it ends', async () => {
    const { skill, state } = deafSkill(600)
    const { service, runner, lines } = engine([skill])
    const { task } = await service.send({ message: userMessage() })
    await service.waitForFinal(task.id, 50)
    await service.cancel(task.id)
    expect((await service.get(task.id)).status.state).toBe('canceled')

    await pause(OUTLIVING_AFTER_MS + 100)
    expect(runner.outlivingSkills).toBe(1)
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        taskId: task.id,
        skillId: 'deaf',
        reason: 'canceled',
        msg: 'skill still running 0.2 s after its task was canceled: it does not stop on ctx.signal; what it reports is dropped, and it uses resources until it returns',
      }),
    ])

    await expect.poll(() => state.ended, { timeout: 2000 }).toBe(true)
    await expect.poll(() => runner.outlivingSkills).toBe(0)
    expect(lines[1]).toMatchObject({
      level: 40,
      taskId: task.id,
      reason: 'canceled',
      msg: 'skill that outlived its turn ended',
      outlivedMs: expect.any(Number),
    })
    // What it did after the cancel changed nothing.
    const stored = await service.get(task.id)
    expect(stored.status.state).toBe('canceled')
    expect(stored.transitions.map((t) => t.state)).toEqual(['submitted', 'working', 'canceled'])
  })

  it('says why its turn stopped: a timeout', async () => {
    const { skill, state } = deafSkill(500)
    const { service, lines } = engine([skill], 100)
    const { task } = await service.send({ message: userMessage() })
    const final = await service.waitForFinal(task.id, 2000)
    expect(final.status.state).toBe('failed')
    await pause(OUTLIVING_AFTER_MS + 100)
    expect(lines.map((line) => line.msg)).toEqual([
      'skill timed out',
      'skill still running 0.2 s after it timed out: it does not stop on ctx.signal; what it reports is dropped, and it uses resources until it returns',
    ])
    await expect.poll(() => state.ended, { timeout: 2000 }).toBe(true)
  })

  it('says which task held the shutdown past its grace, and that its skill still runs', async () => {
    const { skill, state } = deafSkill(500)
    const { service, dispatcher, lines } = engine([skill])
    const { task } = await service.send({ message: userMessage() })
    await service.waitForFinal(task.id, 50)
    await dispatcher.close(100)
    expect((await service.get(task.id)).status).toMatchObject({
      state: 'failed',
      message: { parts: [{ kind: 'text', text: 'The server shut down before the task finished' }] },
    })
    await pause(OUTLIVING_AFTER_MS + 100)
    expect(lines.map(({ msg, taskId, skillId }) => ({ msg, taskId, skillId }))).toEqual([
      {
        msg: 'skill still running when the shutdown grace ended: its task fails',
        taskId: task.id,
        skillId: 'deaf',
      },
      {
        msg: 'skill still running 0.2 s after the server began shutting down: it does not stop on ctx.signal; what it reports is dropped, and it uses resources until it returns',
        taskId: task.id,
        skillId: 'deaf',
      },
    ])
    await expect.poll(() => state.ended, { timeout: 2000 }).toBe(true)
  })

  it('is neither logged nor counted when the skill stops on its signal', async () => {
    const { service, runner, lines } = engine([heedfulSkill])
    const { task } = await service.send({ message: userMessage() })
    await service.waitForFinal(task.id, 50)
    await service.cancel(task.id)
    await pause(OUTLIVING_AFTER_MS + 100)
    expect(runner.outlivingSkills).toBe(0)
    expect(lines).toEqual([])
  })
})

describe('GET /metrics', () => {
  it('reports a2a_skills_outliving_turn', async () => {
    const app = await testApp({ METRICS_ENABLED: 'true' })
    try {
      const response = await app.inject({ method: 'GET', url: '/metrics' })
      expect(response.body).toContain(
        '# HELP a2a_skills_outliving_turn Skills still running more than 5 s after their turn was stopped (canceled, timed out, shut down): they ignore ctx.signal\n# TYPE a2a_skills_outliving_turn gauge\na2a_skills_outliving_turn 0\n',
      )
    } finally {
      await app.close()
    }
  })
})
