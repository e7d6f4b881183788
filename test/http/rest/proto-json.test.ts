/**
 * HTTP+JSON bodies and query strings in the forms ProtoJSON parsers read (spec §11): integer
 * enums, int32 as text, null as unset, proto field names. Query parameters read a value as the
 * same field of a body does.
 */
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { echoSkill } from '../../../src/skills/echo/index.js'
import { testApp } from '../../helpers/app.js'
import { authHeaders } from '../../helpers/auth.js'
import { v10Message } from '../../helpers/jsonrpc.js'

const REST = '/a2a/rest'
const headers = { 'content-type': 'application/json', 'a2a-version': '1.0', ...authHeaders() }

describe('HTTP+JSON: ProtoJSON value forms (§11)', () => {
  let app: FastifyInstance
  afterEach(() => app.close())

  const send = (body: unknown) =>
    app.inject({ method: 'POST', url: `${REST}/message:send`, headers, payload: body as object })
  const get = (path: string) => app.inject({ method: 'GET', url: `${REST}${path}` })

  it('reads a role by its number, null as unset and int32 as text in a body', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const response = await send({
      message: v10Message('rest', { role: 1, contextId: null }),
      configuration: { historyLength: '1', returnImmediately: null },
      metadata: null,
    })
    expect(response.statusCode).toBe(200)
    expect(response.json().task).toMatchObject({
      status: { state: 'TASK_STATE_COMPLETED' },
      history: [{ role: 'ROLE_AGENT' }],
    })
  })

  it('reads proto field names in a body and in a query string', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const message = { message_id: 'snake-1', role: 'ROLE_USER', parts: [{ text: 'x' }] }
    const sent = await send({ message, configuration: { history_length: 0 } })
    expect(sent.json().task).not.toHaveProperty('history')
    const listed = await get('/tasks?page_size=1&history_length=1')
    expect(listed.json()).toMatchObject({ pageSize: 1, totalSize: 1 })
    expect(listed.json().tasks[0].history).toHaveLength(1)
  })

  it('reads a status filter in a query by its name or its number', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const { id } = (await send({ message: v10Message('q') })).json().task
    expect((await get('/tasks?status=TASK_STATE_COMPLETED')).json().tasks).toMatchObject([{ id }])
    expect((await get('/tasks?status=3')).json().tasks).toMatchObject([{ id }])
    expect((await get('/tasks?status=2')).json().tasks).toEqual([])
  })

  it('answers 400 naming the field for a value wrong in every form, in a body or a query', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const role = await send({ message: v10Message('x', { role: 'ROLE_AGENT' }) })
    expect(role.statusCode).toBe(400)
    expect(role.json().error.message).toBe(
      'message.role: a caller sends messages with role ROLE_USER (got "ROLE_AGENT")',
    )
    const status = await get('/tasks?status=9')
    expect(status.statusCode).toBe(400)
    expect(status.json().error.message).toMatch(/^status: must be one of "TASK_STATE_UNSPECIFIED"/)
    const history = await get('/tasks/x?historyLength=2147483648')
    expect(history.json().error.message).toBe('historyLength: must be at most 2147483647')
    const body = await send({ message: v10Message('x'), configuration: { historyLength: 'all' } })
    expect(body.json().error.message).toBe('configuration.historyLength: must be a number')
    // A data part's null is google.protobuf.Value's null, not an unset field.
    const data = await send({ message: { ...v10Message('x'), parts: [{ data: null }] } })
    expect(data.json().error.message).toBe('message.parts[0].data: must be a JSON object')
  })
})
