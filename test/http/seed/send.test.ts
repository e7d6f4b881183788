import type { FastifyInstance } from 'fastify'
import { pino } from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { testApp } from '../../helpers/app.js'
import { keptLog } from '../../helpers/log.js'
import { sendBody, textMessage } from '../../helpers/bodies.js'
import {
  askSkill,
  chunkSkill,
  rejectSkill,
  slowSkill,
  throwingSkill,
} from '../../helpers/skills.js'
import type { Part } from '../../../src/domain/model.js'
import { echoSkill } from '../../../src/skills/echo/index.js'
import type { SkillOutcome } from '../../../src/skills/skill.js'
import { defineSkill } from '../../../src/skills/skill.js'

describe('POST /tasks/send', () => {
  let app: FastifyInstance
  afterEach(() => app.close())

  it('ignores fields its schema does not name: neither refused nor stored', async () => {
    app = await testApp({ BUNDLED_SKILLS: 'echo' })
    const body = sendBody('hello')
    const payload = {
      ...body,
      evil: 1,
      message: { ...body.message, zzz: 'x', parts: [{ type: 'text', text: 'hello', yyy: 2 }] },
    }
    const response = await app.inject({ method: 'POST', url: '/tasks/send', payload })
    expect(response.statusCode).toBe(200)
    const stored = (await app.inject(`/tasks/${body.id}?historyLength=5`)).body
    for (const field of ['evil', 'zzz', 'yyy']) expect(stored).not.toContain(field)
    expect(JSON.parse(stored).history[0]).toEqual({
      role: 'user',
      parts: [{ type: 'text', text: 'hello' }],
    })
  })

  it('runs the default skill and answers with the completed task', async () => {
    app = await testApp({ BUNDLED_SKILLS: 'echo' })
    const body = sendBody('hello', { metadata: { caller: 'test' } })
    const response = await app.inject({ method: 'POST', url: '/tasks/send', payload: body })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8')
    const task = response.json()
    expect(task).toEqual({
      id: body.id,
      sessionId: expect.any(String),
      status: {
        state: 'completed',
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        message: { role: 'agent', parts: [{ type: 'text', text: 'hello' }] },
      },
      artifacts: [{ name: 'echo', parts: [{ type: 'text', text: 'hello' }], index: 0 }],
      statusHistory: [
        { state: 'submitted', timestamp: expect.any(String) },
        { state: 'working', timestamp: expect.any(String) },
        { state: 'completed', timestamp: expect.any(String) },
      ],
      metadata: { caller: 'test' },
    })
  })

  it('keeps the sessionId the client gave', async () => {
    app = await testApp({ BUNDLED_SKILLS: 'echo' })
    const response = await app.inject({
      method: 'POST',
      url: '/tasks/send',
      payload: sendBody('hi', { sessionId: 'session-42' }),
    })
    expect(response.json().sessionId).toBe('session-42')
  })

  it('picks the skill named by metadata.skillId on the request or on the message', async () => {
    app = await testApp({}, { skills: [askSkill, echoSkill] })
    const byRequest = await app.inject({
      method: 'POST',
      url: '/tasks/send',
      payload: sendBody('hi', { metadata: { skillId: 'echo' } }),
    })
    expect(byRequest.json().status.state).toBe('completed')
    const byMessage = await app.inject({
      method: 'POST',
      url: '/tasks/send',
      payload: { ...sendBody('hi'), message: textMessage('hi', { skillId: 'echo' }) },
    })
    expect(byMessage.json().status.state).toBe('completed')
    const byDefault = await app.inject({
      method: 'POST',
      url: '/tasks/send',
      payload: sendBody('hi'),
    })
    expect(byDefault.json().status.state).toBe('input-required')
  })

  it('answers 400 naming the skills when metadata.skillId is unknown', async () => {
    app = await testApp({ BUNDLED_SKILLS: 'echo' })
    const response = await app.inject({
      method: 'POST',
      url: '/tasks/send',
      payload: sendBody('hi', { metadata: { skillId: 'translate' } }),
    })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({
      error: {
        code: 'UNKNOWN_SKILL',
        message: 'Unknown skill "translate"; this agent offers: echo',
        skillId: 'translate',
        requestId: expect.any(String),
      },
    })
  })

  it('answers 415 to a part of a media type the skill does not take, on every seed route', async () => {
    const textOnly = { ...askSkill, inputModes: ['text/plain'] }
    app = await testApp({}, { skills: [textOnly] })
    const png = { type: 'file', file: { bytes: 'aGk=', mimeType: 'image/png' } }
    const refused = {
      error: {
        code: 'CONTENT_TYPE_NOT_SUPPORTED',
        message: 'message.parts[0]: media type image/png is not accepted; send one of: text/plain',
        field: 'message.parts[0]',
        mediaType: 'image/png',
        requestId: expect.any(String),
      },
    }
    const body = { ...sendBody(''), message: { role: 'user', parts: [png] } }
    for (const url of ['/tasks/send', '/tasks/sendSubscribe']) {
      const response = await app.inject({ method: 'POST', url, payload: body })
      expect(response.statusCode).toBe(415)
      expect(response.json()).toEqual(refused)
    }
    expect((await app.inject({ url: `/tasks/${body.id}` })).statusCode).toBe(404)

    // A continuation is refused too, and the task still waits for its answer.
    const asked = sendBody('paint')
    await app.inject({ method: 'POST', url: '/tasks/send', payload: asked })
    const answer = await app.inject({
      method: 'POST',
      url: `/tasks/${asked.id}/send`,
      payload: { message: { role: 'user', parts: [png] } },
    })
    expect(answer.statusCode).toBe(415)
    expect(answer.json()).toEqual(refused)
    const task = (await app.inject({ url: `/tasks/${asked.id}?historyLength=10` })).json()
    expect(task.status.state).toBe('input-required')
    expect(task.history).toHaveLength(2)
  })

  it('answers with the input-required task and its question', async () => {
    app = await testApp({}, { skills: [askSkill] })
    const task = (
      await app.inject({ method: 'POST', url: '/tasks/send', payload: sendBody('paint') })
    ).json()
    expect(task.status).toMatchObject({
      state: 'input-required',
      message: { role: 'agent', parts: [{ type: 'text', text: 'Which colour?' }] },
    })
  })

  it('returns the still-working task once SEND_WAIT_MS has passed', async () => {
    app = await testApp({ SEND_WAIT_MS: '50' }, { skills: [slowSkill()] })
    const body = sendBody('take your time')
    const task = (await app.inject({ method: 'POST', url: '/tasks/send', payload: body })).json()
    expect(task.status.state).toBe('working')
    const later = (await app.inject(`/tasks/${body.id}`)).json()
    expect(later.status.state).toBe('working')
  })

  it('is idempotent: the same id with the same message returns the existing task', async () => {
    app = await testApp({ BUNDLED_SKILLS: 'echo' })
    const body = sendBody('once')
    const first = (await app.inject({ method: 'POST', url: '/tasks/send', payload: body })).json()
    const again = await app.inject({ method: 'POST', url: '/tasks/send', payload: body })
    expect(again.statusCode).toBe(200)
    expect(again.json()).toEqual(first)
  })

  it('answers 409 to the same id with a different message', async () => {
    app = await testApp({ BUNDLED_SKILLS: 'echo' })
    const body = sendBody('once')
    await app.inject({ method: 'POST', url: '/tasks/send', payload: body })
    const conflict = await app.inject({
      method: 'POST',
      url: '/tasks/send',
      payload: { ...body, message: textMessage('twice') },
    })
    expect(conflict.statusCode).toBe(409)
    expect(conflict.json().error).toMatchObject({
      code: 'TASK_ID_CONFLICT',
      message: `Task ${body.id} already exists, from a different request (another message, sessionId, skill or caller); send a new id`,
      taskId: body.id,
    })
  })

  it('reads a task id in any case as the same UUID (RFC 9562), and answers it in lowercase', async () => {
    app = await testApp({ BUNDLED_SKILLS: 'echo' })
    const body = sendBody('once')
    const first = (await app.inject({ method: 'POST', url: '/tasks/send', payload: body })).json()
    const upper = { ...body, id: body.id.toUpperCase() }
    const again = await app.inject({ method: 'POST', url: '/tasks/send', payload: upper })
    expect(again.json()).toEqual(first)
    const read = await app.inject(`/tasks/${upper.id}`)
    expect(read.json().id).toBe(body.id)
    const canceled = await app.inject({ method: 'POST', url: `/tasks/${upper.id}/cancel` })
    expect(canceled.json().error).toMatchObject({ code: 'TASK_NOT_CANCELABLE' })
  })

  it('merges streamed artifact chunks into one artifact', async () => {
    app = await testApp({}, { skills: [chunkSkill] })
    const task = (
      await app.inject({ method: 'POST', url: '/tasks/send', payload: sendBody('go') })
    ).json()
    expect(task.artifacts).toEqual([
      {
        name: 'story',
        index: 0,
        parts: [
          { type: 'text', text: 'one ' },
          { type: 'text', text: 'two ' },
          { type: 'text', text: 'three' },
        ],
      },
    ])
  })

  it('fails the task, without internals, when the skill throws', async () => {
    app = await testApp({}, { skills: [throwingSkill] })
    const response = await app.inject({
      method: 'POST',
      url: '/tasks/send',
      payload: sendBody('boom'),
    })
    expect(response.statusCode).toBe(200)
    expect(response.json().status).toMatchObject({
      state: 'failed',
      message: { parts: [{ type: 'text', text: 'The skill failed with an internal error' }] },
    })
    expect(response.body).not.toContain('passwd')
  })

  it('fails the task when the skill returns something that is not an outcome, and logs why', async () => {
    const lines: string[] = []
    const logger = pino({ level: 'error' }, { write: (line: string) => lines.push(line) })
    const returning = (id: string, value: unknown) =>
      defineSkill({ ...echoSkill, id, execute: async () => value as SkillOutcome })
    const skills = [
      returning('word', 'done'),
      returning('state', { state: 'finished' }),
      returning('text', { state: 'completed', message: 'done' }),
    ]
    app = await testApp({}, { skills, logger })
    for (const skill of skills) {
      const response = await app.inject({
        method: 'POST',
        url: '/tasks/send',
        payload: { ...sendBody('hi'), metadata: { skillId: skill.id } },
      })
      expect(response.statusCode).toBe(200)
      expect(response.json().status).toMatchObject({
        state: 'failed',
        message: { parts: [{ type: 'text', text: 'The skill failed with an internal error' }] },
      })
      // Read back in every dialect, the task is whole.
      const id = response.json().id as string
      expect((await app.inject({ method: 'GET', url: `/tasks/${id}` })).statusCode).toBe(200)
    }
    const logged = lines.map((line) => JSON.parse(line) as { msg: string; outcome: string })
    expect(logged.map((entry) => entry.outcome)).toEqual([
      '(outcome): must be an object',
      'state: must be one of "completed", "input-required", "failed", "rejected", "message"',
      'message: must be an array',
    ])
    expect(logged[0]!.msg).toBe(
      'skill returned something that is not an outcome (use ctx.complete, ctx.fail, …)',
    )
  })

  it('completes on an outcome with fields of its own, and warns that they are ignored', async () => {
    const lines: string[] = []
    const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) })
    const homeMade = defineSkill({
      ...echoSkill,
      id: 'home-made',
      execute: async () => ({ state: 'completed', text: 'done', whatever: 1 }) as SkillOutcome,
    })
    app = await testApp({}, { skills: [homeMade, echoSkill], logger })
    const response = await app.inject({
      method: 'POST',
      url: '/tasks/send',
      payload: { ...sendBody('hi'), metadata: { skillId: 'home-made' } },
    })
    expect(response.json().status.state).toBe('completed')
    const warned = lines
      .map((line) => JSON.parse(line) as { msg: string; ignored?: string[]; skillId?: string })
      .filter((entry) => entry.ignored)
    expect(warned).toEqual([
      expect.objectContaining({
        msg: 'skill returned an outcome with fields that are not part of one: they are ignored (an outcome is { state, message })',
        ignored: ['text', 'whatever'],
        skillId: 'home-made',
      }),
    ])
    // The helpers' outcomes have no other field: nothing to warn of.
    lines.length = 0
    await app.inject({
      method: 'POST',
      url: '/tasks/send',
      payload: { ...sendBody('hi'), metadata: { skillId: 'echo' } },
    })
    expect(lines.filter((line) => line.includes('ignored'))).toEqual([])
  })

  it("fails the skill's emitArtifact call on a part that is not one", async () => {
    const seedShaped = defineSkill({
      ...echoSkill,
      id: 'seed-shaped',
      async execute(ctx) {
        try {
          await ctx.emitArtifact({ parts: [{ type: 'text', text: 'hi' } as unknown as Part] })
        } catch (error) {
          return ctx.fail((error as Error).message)
        }
        return ctx.complete()
      },
    })
    app = await testApp({}, { skills: [seedShaped] })
    const task = (
      await app.inject({ method: 'POST', url: '/tasks/send', payload: sendBody('hi') })
    ).json()
    expect(task.artifacts).toEqual([])
    expect(task.status.message.parts[0].text).toMatch(
      /^emitArtifact: parts\.0\.kind: must be one of "text", "data", "file"$/,
    )
  })

  it("fails the skill's emitArtifact call on a chunk that extends no open artifact", async () => {
    const chunky = defineSkill({
      ...echoSkill,
      id: 'chunky',
      async execute(ctx) {
        const text = (t: string) => [{ kind: 'text' as const, text: t }]
        const problems: string[] = []
        const attempt = (artifactId: string | undefined, lastChunk = false) =>
          ctx
            .emitArtifact(
              { ...(artifactId && { artifactId }), name: 'story', parts: text('more ') },
              { append: true, lastChunk },
            )
            .catch((error: Error) => problems.push(error.message))
        const artifactId = await ctx.emitArtifact({ name: 'story', parts: text('one ') })
        await attempt(undefined)
        await attempt('no-such-artifact')
        await attempt(artifactId, true)
        await attempt(artifactId)
        return ctx.complete(problems.join('\n'))
      },
    })
    app = await testApp({}, { skills: [chunky] })
    const task = (
      await app.inject({ method: 'POST', url: '/tasks/send', payload: sendBody('hi') })
    ).json()
    // One artifact: the first chunk and the one well-formed append.
    expect(task.artifacts).toEqual([
      {
        name: 'story',
        parts: [
          { type: 'text', text: 'one ' },
          { type: 'text', text: 'more ' },
        ],
        index: 0,
      },
    ])
    expect(task.status.message.parts[0].text.split('\n')).toEqual([
      'emitArtifact: append needs the artifactId of the artifact to extend (the id the first emitArtifact call returned)',
      'emitArtifact: the task has no artifact "no-such-artifact" to append to; emit its first chunk without append',
      expect.stringMatching(
        /^emitArtifact: artifact "[0-9a-f-]{36}" was closed by a chunk with lastChunk; append to it no more$/,
      ),
    ])
  })

  it('fails a task whose skill outlives SKILL_TIMEOUT_MS, saying so, and logs which skill', async () => {
    const { lines, logger } = keptLog()
    app = await testApp({ SKILL_TIMEOUT_MS: '50' }, { skills: [slowSkill()], logger })
    const task = (
      await app.inject({ method: 'POST', url: '/tasks/send', payload: sendBody('zzz') })
    ).json()
    expect(task.status).toMatchObject({
      state: 'failed',
      message: { parts: [{ type: 'text', text: 'The task timed out after 50 ms' }] },
    })
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: 'skill timed out',
        taskId: task.id,
        skillId: 'slow',
        timeoutMs: 50,
      }),
    )
  })

  it('returns the last N messages when historyLength is given', async () => {
    app = await testApp({ BUNDLED_SKILLS: 'echo' })
    const task = (
      await app.inject({
        method: 'POST',
        url: '/tasks/send',
        payload: sendBody('hi', { historyLength: 5 }),
      })
    ).json()
    expect(task.history).toEqual([
      { role: 'user', parts: [{ type: 'text', text: 'hi' }] },
      { role: 'agent', parts: [{ type: 'text', text: 'hi' }] },
    ])
  })
})

describe('how a turn ends', () => {
  let app: FastifyInstance
  afterEach(() => app.close())

  it('shows a rejected task as failed, the brief’s lifecycle having no rejected, and says why', async () => {
    app = await testApp({}, { skills: [rejectSkill] })
    const body = sendBody('anything')
    const task = (await app.inject({ method: 'POST', url: '/tasks/send', payload: body })).json()
    const why = {
      role: 'agent',
      parts: [{ type: 'text', text: 'This agent does not take such requests' }],
    }
    expect(task.status).toMatchObject({ state: 'failed', message: why })
    expect(task.statusHistory.map((s: { state: string }) => s.state)).toEqual([
      'submitted',
      'working',
      'failed',
    ])
    expect((await app.inject(`/tasks/${body.id}`)).json().status.state).toBe('failed')
    // A2A 0.2+ clients see what the skill said.
    const v10 = await app.inject({
      method: 'POST',
      url: '/a2a/jsonrpc',
      headers: { 'a2a-version': '1.0' },
      payload: { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: body.id } },
    })
    expect(v10.json().result.status.state).toBe('TASK_STATE_REJECTED')
  })
})
