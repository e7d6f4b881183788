import { randomUUID } from 'node:crypto'
import { describe, expect, it, vi } from 'vitest'
import { inlineEngine } from '../helpers/engine.js'
import { TaskNotCancelableError } from '../../src/domain/errors.js'
import type { Message } from '../../src/domain/model.js'
import { textPart } from '../../src/domain/parts.js'
import type { Skill } from '../../src/skills/skill.js'
import { defineSkill } from '../../src/skills/skill.js'
import { echoSkill } from '../../src/skills/echo/index.js'
import { slowSkill, stuckSkill } from '../helpers/skills.js'
import { newTask, submitted } from '../store/contract.js'
import { keptLog } from '../helpers/log.js'

function engine(skills: Skill[], skillTimeoutMs = 0) {
  return inlineEngine(skills, { skillTimeoutMs })
}

const userMessage = (text: string): Message => ({
  messageId: randomUUID(),
  role: 'user',
  parts: [textPart(text)],
})

/** Completes as soon as it is released, so a test can race completion against cancel. */
function releasableSkill() {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  const skill = defineSkill({
    id: 'releasable',
    name: 'Releasable',
    description: 'waits for the test',
    tags: [],
    async execute(ctx) {
      await released
      return ctx.complete('finished')
    },
  })
  return { skill, release }
}

describe('TaskService', () => {
  it('lets one of two concurrent cancels win; the other names the canceled state', async () => {
    const { service, dispatcher } = engine([slowSkill()])
    const { task } = await service.send({ message: userMessage('go') })
    const results = await Promise.allSettled([service.cancel(task.id), service.cancel(task.id)])
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected'])
    const rejected = results.find((r) => r.status === 'rejected')!
    expect(rejected.reason).toBeInstanceOf(TaskNotCancelableError)
    expect(rejected.reason.details).toMatchObject({ state: 'canceled' })
    await dispatcher.close(1000)
    expect((await service.get(task.id)).status.state).toBe('canceled')
  })

  it('keeps the task canceled when the skill completes after the cancel', async () => {
    const { skill, release } = releasableSkill()
    const { service, dispatcher, events } = engine([skill])
    const { task } = await service.send({ message: userMessage('go') })
    await service.waitForFinal(task.id, 20)
    await service.cancel(task.id)
    release()
    await dispatcher.close(1000)
    const stored = await service.get(task.id)
    expect(stored.status.state).toBe('canceled')
    expect(stored.transitions.map((t) => t.state)).toEqual(['submitted', 'working', 'canceled'])
    const states = (await events.read(task.id)).map(
      (e) => e.event.kind === 'status-update' && e.event.status.state,
    )
    expect(states).toEqual(['submitted', 'working', 'canceled'])
  })

  it('races completion against cancel many times: always one winner, never a corrupt task', async () => {
    for (let round = 0; round < 25; round++) {
      const { skill, release } = releasableSkill()
      const { service, dispatcher, events } = engine([skill])
      const { task } = await service.send({ message: userMessage('go') })
      await service.waitForFinal(task.id, 5)
      const cancel = service.cancel(task.id).then(
        () => 'canceled',
        () => 'too late',
      )
      release()
      const outcome = await cancel
      await dispatcher.close(1000)
      const stored = await service.get(task.id)
      const terminal = stored.transitions.slice(2).map((t) => t.state)
      expect(terminal).toHaveLength(1)
      expect(terminal[0]).toBe(outcome === 'canceled' ? 'canceled' : 'completed')
      expect((await events.read(task.id)).length).toBe(stored.transitions.length)
    }
  })

  it('creates one task from many concurrent sends of the same request', async () => {
    const { skill, release } = releasableSkill()
    const { service, dispatcher } = engine([skill])
    const taskId = randomUUID()
    const message = userMessage('same')
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        service.send({ taskId, message: { ...message, messageId: randomUUID() } }),
      ),
    )
    expect(results.filter((r) => r.created)).toHaveLength(1)
    release()
    await dispatcher.close(1000)
    expect((await service.get(taskId)).status.state).toBe('completed')
  })

  it('on shutdown waits for running turns, then fails the ones past the grace period', async () => {
    const { service, dispatcher } = engine([stuckSkill])
    const { task } = await service.send({ message: userMessage('never ends') })
    await dispatcher.close(50)
    expect((await service.get(task.id)).status).toMatchObject({
      state: 'failed',
      message: { parts: [{ kind: 'text', text: 'The server shut down before the task finished' }] },
    })
    await expect(service.send({ message: userMessage('late') })).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
    })
  })

  it('fails a turn that ignores its signal once the timeout passes', async () => {
    const { service, dispatcher } = engine([stuckSkill], 30)
    const { task } = await service.send({ message: userMessage('hang') })
    const final = await service.waitForFinal(task.id, 2000)
    expect(final.status.state).toBe('failed')
    await dispatcher.close(10)
  })

  it('writes a turn that emits and completes at once as one store change after the create', async () => {
    const { service, store, events } = engine([echoSkill])
    const apply = vi.spyOn(store, 'apply')
    const applyAll = vi.spyOn(store, 'applyAll')
    const { task } = await service.send({ message: userMessage('hi') })
    const final = await service.waitForFinal(task.id, 5000)
    expect(final.status.state).toBe('completed')
    expect(final.artifacts).toHaveLength(1)
    expect(apply).not.toHaveBeenCalled()
    expect(applyAll).toHaveBeenCalledTimes(1)
    const kinds = (await events.read(task.id)).map(({ event }) =>
      event.kind === 'status-update' ? event.status.state : event.kind,
    )
    expect(kinds).toEqual(['submitted', 'working', 'artifact-update', 'completed'])
  })
})

describe('InlineDispatcher', () => {
  it('fails a task whose skill this process lacks, saying so, rather than leave it submitted', async () => {
    const { dispatcher, store } = engine([echoSkill])
    const task = newTask({ skillId: 'gone' })
    await store.create(task, submitted(task))
    const { ended } = await dispatcher.dispatch(task)
    const failed = await ended
    expect(failed?.status).toMatchObject({
      state: 'failed',
      message: { parts: [textPart('This agent does not offer skill "gone"')] },
    })
  })

  it('tells a skill of the cancel of its task that waited for input, not of one running', async () => {
    const told: { taskId: string; question: string }[] = []
    const asking = defineSkill({
      id: 'asking',
      name: 'Asking',
      description: 'asks, or waits when told to',
      tags: [],
      async execute(ctx) {
        if (ctx.input.text === 'wait') {
          await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve))
        }
        return ctx.requestInput('Which colour?')
      },
      async canceledWhileWaiting(task) {
        const question = task.history.findLast((m) => m.role === 'agent')
        told.push({
          taskId: task.taskId,
          question: question?.parts[0]?.kind === 'text' ? question.parts[0].text : '',
        })
        throw new Error('the other side is gone')
      },
    })
    const { lines, logger } = keptLog('warn')
    const { service, dispatcher } = inlineEngine([asking], { log: logger })
    const { task: waiting } = await service.send({ message: userMessage('ask') })
    expect((await service.waitForFinal(waiting.id, 1000)).status.state).toBe('input-required')
    const { task: running } = await service.send({ message: userMessage('wait') })
    await service.cancel(running.id)
    await service.cancel(waiting.id)
    await vi.waitFor(() => expect(lines).toHaveLength(1))
    expect(told).toEqual([{ taskId: waiting.id, question: 'Which colour?' }])
    // The cancel stands; the skill's failure is the log's.
    expect((await service.get(waiting.id)).status.state).toBe('canceled')
    expect(lines[0]).toMatchObject({
      msg: 'the skill failed to act on the cancel of its waiting task',
      taskId: waiting.id,
      err: { message: 'the other side is gone' },
    })
    await dispatcher.close(1000)
  })
})
