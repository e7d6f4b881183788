/**
 * The A2A 0.2+ message rules on the Redis store: de-duplication through the atomic `create`, and
 * a direct reply kept on the stored status, hold there as in memory.
 */
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { inlineEngine } from '../helpers/engine.js'
import type { Message } from '../../src/domain/model.js'
import { textPart } from '../../src/domain/parts.js'
import { echoSkill } from '../../src/skills/echo/index.js'
import type { Skill } from '../../src/skills/skill.js'
import { defineSkill } from '../../src/skills/skill.js'
import type { TestRedisStore } from '../helpers/redis.js'
import { useRedisStores } from '../helpers/redis.js'

function engine(store: TestRedisStore, skills: Skill[]) {
  return inlineEngine(skills, { store }).service
}

const message = (text: string): Message => ({
  messageId: randomUUID(),
  role: 'user',
  parts: [textPart(text)],
})

describe('TaskService.sendMessage on the Redis store', () => {
  const redis = useRedisStores()

  it('answers a retried message with the task it created', async () => {
    const tasks = engine(redis.store(60), [echoSkill])
    const first = message('once')
    const { task } = await tasks.sendMessage({ message: first })
    await tasks.waitForFinal(task.id, 2000)
    const retry = await tasks.sendMessage({ message: { ...first } })
    expect(retry).toMatchObject({ created: false, task: { id: task.id } })
    expect(retry.task.status.state).toBe('completed')
  })

  it('keeps a direct reply on the stored status', async () => {
    const reply = defineSkill({
      id: 'reply',
      name: 'Reply',
      description: 'answers with a message',
      tags: [],
      execute: async () => ({ state: 'message', message: [textPart('hi back')] }),
    })
    const tasks = engine(redis.store(60), [reply])
    const { task } = await tasks.sendMessage({ message: message('hi') })
    const done = await tasks.waitForFinal(task.id, 2000)
    expect(done.status).toMatchObject({ state: 'completed', directReply: true })
    expect((await tasks.get(task.id)).status.directReply).toBe(true)
  })
})
