/** The conformance agent's skill: behaviour keyed by messageId prefix, as the TCK expects. */
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tckSkill } from '../../src/conformance/tck-skill.js'
import { testApp } from '../helpers/app.js'
import { rpc } from '../helpers/jsonrpc.js'

describe('the TCK scenario skill', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await testApp({}, { skills: [tckSkill] })
  })
  afterAll(() => app.close())

  const send = async (prefix: string, parts: unknown[] = [{ text: 'x' }]) =>
    (
      await rpc(app, 'SendMessage', {
        message: { messageId: `${prefix}-${Math.random()}`, role: 'ROLE_USER', parts },
      })
    ).body.result

  it('completes tck-complete-task with "Hello from TCK"', async () => {
    const { task } = await send('tck-complete-task')
    expect(task.status).toMatchObject({
      state: 'TASK_STATE_COMPLETED',
      message: { parts: [{ text: 'Hello from TCK' }] },
    })
  })

  it('delivers each artifact kind', async () => {
    expect((await send('tck-artifact-text')).task.artifacts[0].parts).toEqual([
      { text: 'Generated text content' },
    ])
    expect((await send('tck-artifact-file-url')).task.artifacts[0].parts).toEqual([
      { url: 'https://example.com/output.txt', filename: 'output.txt', mediaType: 'text/plain' },
    ])
    expect((await send('tck-artifact-file')).task.artifacts[0].parts[0]).toMatchObject({
      raw: expect.any(String),
      filename: 'output.txt',
    })
    expect((await send('tck-artifact-data')).task.artifacts[0].parts).toEqual([
      { data: { key: 'value', count: 42 } },
    ])
  })

  it('answers tck-message-response with a message, not a task', async () => {
    expect(await send('tck-message-response')).toMatchObject({
      message: { role: 'ROLE_AGENT', parts: [{ text: 'Direct message response' }] },
    })
  })

  it('waits for input on tck-input-required and rejects on tck-reject-task', async () => {
    expect((await send('tck-input-required')).task.status.state).toBe('TASK_STATE_INPUT_REQUIRED')
    expect((await send('tck-reject-task')).task.status.state).toBe('TASK_STATE_REJECTED')
  })

  it('accepts any media type (the TCK sends an unknown one and expects an answer)', async () => {
    const result = await send('tck-complete-task', [
      { raw: 'dGNr', mediaType: 'application/x-unknown' },
    ])
    expect(result.task.status.state).toBe('TASK_STATE_COMPLETED')
  })
})
