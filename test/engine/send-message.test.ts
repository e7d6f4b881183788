/**
 * TaskService.sendMessage: the A2A 0.2+ rules for a message (server task ids, de-duplication by
 * messageId, contextId and taskId rules, terminal tasks, media types, direct replies).
 */
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { inlineEngine } from '../helpers/engine.js'
import {
  ContentTypeNotSupportedError,
  InvalidRequestError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '../../src/domain/errors.js'
import type { Message, Part } from '../../src/domain/model.js'
import { textPart } from '../../src/domain/parts.js'
import { messageTaskId, uuidV5 } from '../../src/engine/message-rules.js'
import type { TaskServiceOptions } from '../../src/engine/task-service.js'
import type { Skill } from '../../src/skills/skill.js'
import { defineSkill } from '../../src/skills/skill.js'
import { echoSkill } from '../../src/skills/echo/index.js'
import { askSkill } from '../helpers/skills.js'

function engine(skills: Skill[], options: Partial<TaskServiceOptions> = {}) {
  return inlineEngine(skills, { service: options }).service
}

const message = (text: string, extra: Partial<Message> = {}): Message => ({
  messageId: randomUUID(),
  role: 'user',
  parts: [textPart(text)],
  ...extra,
})

const replySkill = defineSkill({
  id: 'reply',
  name: 'Reply',
  description: 'answers with a direct message',
  tags: [],
  execute: async () => ({ state: 'message', message: [textPart('just a message')] }),
})

describe('message task ids', () => {
  it('derives a UUIDv5 (RFC 9562 test vector: DNS namespace, "www.example.com")', () => {
    const dns = Buffer.from('6ba7b8109dad11d180b400c04fd430c8', 'hex')
    expect(uuidV5('www.example.com', dns)).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2')
  })

  it('names the same task for the same caller and messageId, another for another caller', () => {
    expect(messageTaskId('alice', 'm-1')).toBe(messageTaskId('alice', 'm-1'))
    expect(messageTaskId('alice', 'm-1')).not.toBe(messageTaskId('bob', 'm-1'))
    expect(messageTaskId(undefined, 'm-1')).not.toBe(messageTaskId('alice', 'm-1'))
  })
})

describe('TaskService.sendMessage', () => {
  it('creates a task with a server-generated id and context', async () => {
    const tasks = engine([echoSkill])
    const { task, created } = await tasks.sendMessage({ message: message('hi') })
    expect(created).toBe(true)
    expect(task.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(task.contextId).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('keeps a contextId the client gave', async () => {
    const tasks = engine([echoSkill])
    const { task } = await tasks.sendMessage({ message: message('hi'), contextId: 'ctx-1' })
    expect(task.contextId).toBe('ctx-1')
  })

  it('answers a retried message with the task it created, without running it again', async () => {
    const tasks = engine([echoSkill])
    const first = message('once')
    const { task } = await tasks.sendMessage({ message: first })
    await tasks.waitForFinal(task.id, 1000)
    const retry = await tasks.sendMessage({ message: { ...first } })
    expect(retry.created).toBe(false)
    expect(retry.task.id).toBe(task.id)
    expect(retry.task.status.state).toBe('completed')
    expect((await tasks.list({ pageSize: 10 })).totalSize).toBe(1)
  })

  it('refuses a messageId reused for a different message', async () => {
    const tasks = engine([echoSkill])
    const first = message('one')
    await tasks.sendMessage({ message: first })
    await expect(
      tasks.sendMessage({ message: { ...first, parts: [textPart('two')] } }),
    ).rejects.toThrow(InvalidRequestError)
  })

  it('makes every message a new task when de-duplication is off', async () => {
    const tasks = engine([echoSkill], { dedupeMessages: false })
    const same = message('again')
    const a = await tasks.sendMessage({ message: same })
    const b = await tasks.sendMessage({ message: same })
    expect(a.task.id).not.toBe(b.task.id)
  })

  it('continues an input-required task named by taskId, in its context', async () => {
    const tasks = engine([askSkill])
    const { task } = await tasks.sendMessage({ message: message('paint') })
    expect((await tasks.waitForFinal(task.id, 1000)).status.state).toBe('input-required')
    await tasks.sendMessage({ message: message('blue'), taskId: task.id })
    const done = await tasks.waitForFinal(task.id, 1000)
    expect(done.status.state).toBe('completed')
    expect(done.contextId).toBe(task.contextId)
  })

  it('rejects a taskId it does not know with TaskNotFound', async () => {
    const tasks = engine([echoSkill])
    await expect(
      tasks.sendMessage({ message: message('x'), taskId: 'no-such-task' }),
    ).rejects.toThrow(TaskNotFoundError)
  })

  it('rejects a contextId that is not the task’s', async () => {
    const tasks = engine([askSkill])
    const { task } = await tasks.sendMessage({ message: message('paint') })
    await tasks.waitForFinal(task.id, 1000)
    const error = await tasks
      .sendMessage({ message: message('blue'), taskId: task.id, contextId: 'other' })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect((error as InvalidRequestError).field).toBe('message.contextId')
  })

  it('refuses a message to a terminal task with UnsupportedOperation', async () => {
    const tasks = engine([echoSkill])
    const { task } = await tasks.sendMessage({ message: message('done') })
    await tasks.waitForFinal(task.id, 1000)
    await expect(tasks.sendMessage({ message: message('more'), taskId: task.id })).rejects.toThrow(
      UnsupportedOperationError,
    )
  })

  it('keeps referenceTaskIds on the message', async () => {
    const tasks = engine([echoSkill])
    const { task } = await tasks.sendMessage({
      message: message('follow-up', { referenceTaskIds: ['earlier-task'] }),
    })
    expect(task.history[0]?.referenceTaskIds).toEqual(['earlier-task'])
  })

  it('refuses a part whose media type the skill does not accept', async () => {
    const tasks = engine([echoSkill])
    const file: Part = { kind: 'file', file: { bytes: 'AAAA', mimeType: 'image/png' } }
    await expect(
      tasks.sendMessage({ message: { ...message('x'), parts: [file] } }),
    ).rejects.toThrow(ContentTypeNotSupportedError)
  })

  it('records a direct reply as a completed task whose status says so', async () => {
    const tasks = engine([replySkill])
    const { task } = await tasks.sendMessage({ message: message('hello') })
    const done = await tasks.waitForFinal(task.id, 1000)
    expect(done.status).toMatchObject({
      state: 'completed',
      directReply: true,
      message: { role: 'agent', parts: [{ kind: 'text', text: 'just a message' }] },
    })
  })

  it('lists only the owner’s tasks when asked for one owner', async () => {
    const tasks = engine([echoSkill])
    await tasks.sendMessage({ message: message('a'), owner: 'alice' })
    await tasks.sendMessage({ message: message('b'), owner: 'bob' })
    const page = await tasks.list({ owner: 'alice', pageSize: 10 })
    expect(page.tasks.map((t) => t.owner)).toEqual(['alice'])
  })

  it('hides another owner’s task as not found', async () => {
    const tasks = engine([echoSkill])
    const { task } = await tasks.sendMessage({ message: message('a'), owner: 'alice' })
    await expect(tasks.getFor(task.id, 'bob')).rejects.toThrow(TaskNotFoundError)
    await expect(tasks.getFor(task.id, 'alice')).resolves.toMatchObject({ id: task.id })
  })
})
