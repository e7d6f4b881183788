/** Input hardening (issue 4 §5): skill inputSchema, nesting depth, ids, in every dialect. */
import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app.js'
import { configFrom, ConfigError } from '../../src/config.js'
import { defineSkill } from '../../src/skills/skill.js'
import { testApp } from '../helpers/app.js'
import { keptLog } from '../helpers/log.js'
import { rpc, v03Message, v10Message } from '../helpers/jsonrpc.js'

/** Needs `{ticket: "ABC-123"}` and, if given, a numeric `priority`; asks once for more input. */
const ticketSkill = defineSkill({
  id: 'ticket',
  name: 'Ticket',
  description: 'Files a ticket',
  tags: [],
  inputSchema: {
    type: 'object',
    properties: {
      ticket: { type: 'string', pattern: '^[A-Z]+-\\d+$' },
      priority: { type: 'integer', minimum: 1 },
      tags: { type: 'array', items: { type: 'string' } },
    },
    required: ['ticket'],
  },
  execute: async (ctx) =>
    ctx.history.length === 1
      ? ctx.requestInput('anything else?')
      : ctx.complete(`filed ${JSON.stringify(ctx.input.data)}`),
})

const dataMessage = (data: Record<string, unknown>) => ({
  role: 'user',
  parts: [
    { type: 'text', text: 'file it' },
    { type: 'data', data },
  ],
})

describe('input hardening', () => {
  let app: FastifyInstance
  afterEach(() => app.close())

  describe("a skill's inputSchema", () => {
    it('refuses a seed send whose data input breaks the schema, naming the field', async () => {
      app = await testApp({}, { skills: [ticketSkill] })
      const response = await app.inject({
        method: 'POST',
        url: '/tasks/send',
        payload: { id: randomUUID(), message: dataMessage({ ticket: 'ABC-1', tags: ['a', 7] }) },
      })
      expect(response.statusCode).toBe(400)
      expect(response.json().error).toMatchObject({
        code: 'INVALID_REQUEST',
        field: 'message.parts[1].data.tags[1]',
        pointer: '/tags/1',
        skillId: 'ticket',
        message:
          'message.parts[1].data.tags[1]: must be string (the input schema of skill "ticket")',
      })
    })

    it('names a missing required field', async () => {
      app = await testApp({}, { skills: [ticketSkill] })
      const response = await app.inject({
        method: 'POST',
        url: '/tasks/send',
        payload: { id: randomUUID(), message: dataMessage({ priority: 2 }) },
      })
      expect(response.json().error).toMatchObject({
        field: 'message.parts[1].data.ticket',
        pointer: '/ticket',
      })
    })

    it('stores no task for a refused send', async () => {
      app = await testApp({}, { skills: [ticketSkill] })
      const id = randomUUID()
      await app.inject({
        method: 'POST',
        url: '/tasks/send',
        payload: { id, message: dataMessage({ ticket: 'nope' }) },
      })
      expect((await app.inject(`/tasks/${id}`)).statusCode).toBe(404)
    })

    it('lets a matching data input and a message without data parts through', async () => {
      app = await testApp({}, { skills: [ticketSkill] })
      const id = randomUUID()
      const sent = await app.inject({
        method: 'POST',
        url: '/tasks/send',
        payload: { id, message: dataMessage({ ticket: 'ABC-1', priority: 3 }) },
      })
      expect(sent.json().status.state).toBe('input-required')
      const textOnly = await app.inject({
        method: 'POST',
        url: `/tasks/${id}/send`,
        payload: { message: { role: 'user', parts: [{ type: 'text', text: 'no' }] } },
      })
      expect(textOnly.json().status.state).toBe('completed')
    })

    /** A ticket task waiting for more input, and its answer with data. */
    async function ticketAsking() {
      app = await testApp({}, { skills: [ticketSkill] })
      const id = randomUUID()
      await app.inject({
        method: 'POST',
        url: '/tasks/send',
        payload: { id, message: dataMessage({ ticket: 'ABC-1' }) },
      })
      const answer = (data: Record<string, unknown>) =>
        app.inject({
          method: 'POST',
          url: `/tasks/${id}/send`,
          payload: { message: dataMessage(data) },
        })
      return { id, answer }
    }

    it('checks a continuation against the task’s skill', async () => {
      const { id, answer } = await ticketAsking()
      const response = await answer({ ticket: 'ABC-1', priority: 0 })
      expect(response.statusCode).toBe(400)
      expect(response.json().error.pointer).toBe('/priority')
      expect((await app.inject(`/tasks/${id}`)).json().status.state).toBe('input-required')
    })

    it('takes an answer without the required fields the task was given before', async () => {
      const { answer } = await ticketAsking()
      const response = await answer({ priority: 2 })
      expect(response.statusCode).toBe(200)
      // The skill reads what the schema checked: the answer merged over the earlier data.
      expect(response.json().status).toMatchObject({
        state: 'completed',
        message: { parts: [{ text: 'filed {"ticket":"ABC-1","priority":2}' }] },
      })
    })

    it('gives the skill the earlier data with an answer in text alone', async () => {
      const { id } = await ticketAsking()
      const response = await app.inject({
        method: 'POST',
        url: `/tasks/${id}/send`,
        payload: { message: { role: 'user', parts: [{ type: 'text', text: 'no' }] } },
      })
      expect(response.json().status.message.parts[0].text).toBe('filed {"ticket":"ABC-1"}')
    })

    it('answers A2A 1.0 JSON-RPC with -32602 and a BadRequest field violation', async () => {
      app = await testApp({}, { skills: [ticketSkill] })
      const { body } = await rpc(app, 'SendMessage', {
        message: v10Message('x', { parts: [{ data: { ticket: 5 } }] }),
      })
      expect(body.error).toMatchObject({
        code: -32602,
        data: [
          { reason: 'INVALID_PARAMS', metadata: { pointer: '/ticket', skillId: 'ticket' } },
          {
            '@type': 'type.googleapis.com/google.rpc.BadRequest',
            fieldViolations: [{ field: 'message.parts[0].data.ticket' }],
          },
        ],
      })
    })

    it('answers A2A 0.3 JSON-RPC with -32602 and the field in data', async () => {
      app = await testApp({}, { skills: [ticketSkill] })
      const { body } = await rpc(
        app,
        'message/send',
        {
          message: v03Message('x', {
            parts: [{ kind: 'data', data: { ticket: 'A-1', priority: 'high' } }],
          }),
        },
        { version: null },
      )
      expect(body.error).toMatchObject({
        code: -32602,
        data: { field: 'message.parts[0].data.priority', pointer: '/priority' },
      })
    })

    it('answers the 1.0 HTTP+JSON binding with 400 INVALID_ARGUMENT', async () => {
      app = await testApp({}, { skills: [ticketSkill] })
      const response = await app.inject({
        method: 'POST',
        url: '/a2a/rest/message:send',
        payload: { message: v10Message('x', { parts: [{ data: {} }] }) },
      })
      expect(response.statusCode).toBe(400)
      expect(response.json().error).toMatchObject({
        status: 'INVALID_ARGUMENT',
        details: [
          { metadata: { pointer: '/ticket' } },
          { fieldViolations: [{ field: 'message.parts[0].data.ticket' }] },
        ],
      })
    })

    it('stops the start when a skill’s inputSchema is not a valid JSON Schema', async () => {
      const broken = defineSkill({ ...ticketSkill, id: 'broken', inputSchema: { type: 'strin' } })
      await expect(
        buildApp(configFrom({ LOG_LEVEL: 'silent' }), { skills: [broken] }),
      ).rejects.toThrow(ConfigError)
      await expect(
        buildApp(configFrom({ LOG_LEVEL: 'silent' }), { skills: [broken] }),
      ).rejects.toThrow(/skill "broken": inputSchema is not a valid JSON Schema/)
      app = await testApp()
    })
    it('stops the start on a schema that could not check a data input, naming why', async () => {
      const start = (inputSchema: Record<string, unknown>) =>
        buildApp(configFrom({ LOG_LEVEL: 'silent' }), {
          skills: [defineSkill({ ...ticketSkill, inputSchema })],
        })
      await expect(
        start({ type: 'object', properties: { when: { type: 'string', format: 'someday' } } }),
      ).rejects.toThrow(
        /skill "ticket": inputSchema is not a valid JSON Schema: unknown format "someday" at path "#\/properties\/when"; known formats: date, /,
      )
      await expect(start({ type: 'string' })).rejects.toThrow(
        'skill "ticket": inputSchema is not a valid JSON Schema: its type is "string", but it checks the message\'s data parts merged into one object: use type "object"',
      )
      app = await testApp()
    })

    it('logs a keyword the schema language does not know, such as a misspelt one, at start', async () => {
      const { lines, logger } = keptLog()
      const skill = defineSkill({
        ...ticketSkill,
        inputSchema: { type: 'object', requried: ['ticket'] },
      })
      app = await testApp({}, { skills: [skill], logger })
      expect(lines).toContainEqual(
        expect.objectContaining({
          level: 40,
          msg: 'skill "ticket": inputSchema: unknown keyword: "requried"',
        }),
      )
    })
  })

  describe('JSON nesting depth', () => {
    const deep = (depth: number) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown

    it('refuses a body nested deeper than MAX_JSON_DEPTH in the seed dialect', async () => {
      app = await testApp({ MAX_JSON_DEPTH: '8' })
      const response = await app.inject({
        method: 'POST',
        url: '/tasks/send',
        payload: { id: randomUUID(), message: dataMessage({}), metadata: { x: deep(10) } },
      })
      expect(response.statusCode).toBe(400)
      expect(response.json().error).toMatchObject({
        code: 'LIMIT_EXCEEDED',
        field: 'metadata',
        limit: 8,
      })
    })

    it('refuses a deep JSON-RPC body with an invalid-params error carrying the request id', async () => {
      app = await testApp()
      const depth = 50_000
      const response = await app.inject({
        method: 'POST',
        url: '/a2a/jsonrpc',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
        payload: `{"jsonrpc":"2.0","id":42,"method":"GetTask","params":{"id":${'['.repeat(depth)}${']'.repeat(depth)}}}`,
      })
      expect(response.statusCode).toBe(200)
      expect(response.json()).toMatchObject({ id: 42, error: { code: -32602 } })
    })

    it('refuses a deep HTTP+JSON body with 400', async () => {
      app = await testApp()
      const response = await app.inject({
        method: 'POST',
        url: '/a2a/rest/message:send',
        payload: { message: v10Message('x', { metadata: { x: deep(100) } }) },
      })
      expect(response.statusCode).toBe(400)
      expect(response.json().error.status).toBe('INVALID_ARGUMENT')
    })
  })

  describe('client ids', () => {
    it('answers a task id that is not a UUID with TaskNotFound in A2A 1.0 and 0.3', async () => {
      app = await testApp()
      expect((await rpc(app, 'GetTask', { id: 'not-a-uuid' })).body.error.code).toBe(-32001)
      const sent = await rpc(
        app,
        'message/send',
        { message: v03Message('x', { taskId: '../../etc' }) },
        { version: null },
      )
      expect(sent.body.error.code).toBe(-32001)
      const canceled = await app.inject({ method: 'POST', url: '/a2a/rest/tasks/nope:cancel' })
      expect(canceled.statusCode).toBe(404)
    })

    it('refuses a seed task id that is not a UUID with 400', async () => {
      app = await testApp()
      const response = await app.inject({
        method: 'POST',
        url: '/tasks/send',
        payload: { id: 'task-1', message: dataMessage({}) },
      })
      expect(response.statusCode).toBe(400)
      expect(response.json().error).toMatchObject({ code: 'INVALID_REQUEST', field: 'id' })
    })

    it('refuses a file part whose url is not a URL in every dialect, so none stores one', async () => {
      app = await testApp()
      const notUrl = 'not a url\u0000'
      const v10 = await rpc(app, 'SendMessage', {
        message: v10Message('x', { parts: [{ url: notUrl, mediaType: 'text/plain' }] }),
      })
      expect(v10.body.error).toMatchObject({
        code: -32602,
        message: 'message.parts[0].url: must be a URL',
      })
      const v03 = await rpc(
        app,
        'message/send',
        { message: v03Message('x', { parts: [{ kind: 'file', file: { uri: '::::' } }] }) },
        { version: null },
      )
      expect(v03.body.error).toMatchObject({
        code: -32602,
        data: { field: 'message.parts[0].file.uri' },
      })
      const rest = await app.inject({
        method: 'POST',
        url: '/a2a/rest/message:send',
        payload: { message: v10Message('x', { parts: [{ url: notUrl }] }) },
      })
      expect(rest.statusCode).toBe(400)
      const seed = await app.inject({
        method: 'POST',
        url: '/tasks/send',
        payload: {
          id: randomUUID(),
          message: { role: 'user', parts: [{ type: 'file', file: { uri: notUrl } }] },
        },
      })
      expect(seed.json().error).toMatchObject({
        code: 'INVALID_REQUEST',
        message: 'message.parts[0].file.uri: must be a URL',
      })
      const listed = await app.inject({ url: '/a2a/rest/tasks' })
      expect(listed.json().tasks).toEqual([])
    })

    it('refuses a client contextId longer than 256 characters', async () => {
      app = await testApp()
      const { body } = await rpc(app, 'SendMessage', {
        message: v10Message('x', { contextId: 'c'.repeat(257) }),
      })
      expect(body.error).toMatchObject({ code: -32602 })
      expect(body.error.message).toContain('contextId')
    })
  })
})
