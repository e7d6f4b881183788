/**
 * The brief's client, step by step, against a real server over HTTP: discover the agent, check
 * the skill, stream a review, read the task back, cancel a slow task, and a multi-turn review.
 */
import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { echoSkill } from '../../src/skills/echo/index.js'
import { reviewPrSkill } from '../../src/skills/review-pr/index.js'
import { anonymousPr, pythonPr } from '../fixtures/diffs.js'
import { listening, testApp } from '../helpers/app.js'
import { authHeaders } from '../helpers/auth.js'
import { readAll } from '../helpers/sse.js'
import { slowSkill } from '../helpers/skills.js'

describe("the brief's client flow, end to end", () => {
  let app: FastifyInstance
  let base: string
  beforeAll(async () => {
    app = await testApp(
      { DEFAULT_SKILL: 'review-pr', SEND_WAIT_MS: '500', SHUTDOWN_GRACE_MS: '100' },
      { skills: [reviewPrSkill, echoSkill, slowSkill()] },
    )
    base = await listening(app)
  })
  afterAll(() => app.close())

  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...authHeaders() },
      body: JSON.stringify(body),
    })
    return { status: response.status, body: (await response.json()) as any }
  }

  it('discovers the agent and checks that it declares review-pr', async () => {
    const response = await fetch(`${base}/.well-known/agent.json`)
    expect(response.status).toBe(200)
    const card = (await response.json()) as { name: string; skills: { id: string }[] }
    expect(card.name).toBe('Code Review Agent')
    expect(card.skills.some((skill) => skill.id === 'review-pr')).toBe(true)
  })

  it('streams a review: progress per file, then the findings with new-file line numbers', async () => {
    const id = randomUUID()
    const response = await fetch(`${base}/tasks/sendSubscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...authHeaders() },
      body: JSON.stringify({
        id,
        message: {
          role: 'user',
          parts: [
            { type: 'text', text: 'Review this diff for security issues' },
            { type: 'data', data: { diff: pythonPr, focus: ['security'] } },
          ],
        },
      }),
    })
    const updates = (await readAll(response)).frames.map((frame) => JSON.parse(frame.data))
    expect(updates[0].status.state).toBe('submitted')
    const progress = updates
      .map((update) => update.status.message?.parts[0]?.text)
      .filter((text) => typeof text === 'string' && text.startsWith('Analyzing file'))
    // Every frame is a snapshot, so a status message shows until the next status replaces it.
    expect([...new Set(progress)]).toEqual([
      'Analyzing file 1/2: app/users.py…',
      'Analyzing file 2/2: app/settings.py…',
    ])
    const last = updates.at(-1)
    expect(last.final).toBe(true)
    expect(last.status.state).toBe('completed')
    const data = last.artifacts[0].parts.find((part: { type: string }) => part.type === 'data').data
    expect(data.findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file: 'app/users.py', line: 14, rule: 'sql-injection' }),
        expect.objectContaining({ file: 'app/settings.py', line: 3, rule: 'committed-credential' }),
      ]),
    )
    expect(data.summary).toMatch(/2 findings/)

    const task = (await (
      await fetch(`${base}/tasks/${id}`, { headers: authHeaders() })
    ).json()) as any
    expect(task.status.state).toBe('completed')
    expect(task.artifacts).toEqual(last.artifacts)
  })

  it('cancels a slow task, and a second cancel names its state', async () => {
    const id = randomUUID()
    const sent = await post('/tasks/send', {
      id,
      message: {
        role: 'user',
        parts: [{ type: 'text', text: 'take forever' }],
        metadata: { skillId: 'slow' },
      },
    })
    expect(sent.body.status.state).toBe('working')
    const canceled = await post(`/tasks/${id}/cancel`, {})
    expect(canceled.status).toBe(200)
    expect(canceled.body.status.state).toBe('canceled')
    const again = await post(`/tasks/${id}/cancel`, {})
    expect(again.status).toBe(400)
    expect(again.body.error).toMatchObject({ code: 'TASK_NOT_CANCELABLE', state: 'canceled' })
  })

  it('runs a multi-turn review: asks which language, then completes with the answer', async () => {
    const id = randomUUID()
    const first = await post('/tasks/send', {
      id,
      message: { role: 'user', parts: [{ type: 'text', text: anonymousPr }] },
    })
    expect(first.body.status.state).toBe('input-required')
    expect(first.body.status.message.parts[0].text).toMatch(/language/i)

    const second = await post(`/tasks/${id}/send`, {
      message: { role: 'user', parts: [{ type: 'text', text: 'python' }] },
    })
    expect(second.status).toBe(200)
    expect(second.body.status.state).toBe('completed')
    const data = second.body.artifacts[0].parts.find(
      (part: { type: string }) => part.type === 'data',
    ).data
    expect(data.language).toBe('python')
    expect(data.findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          file: 'snippet',
          line: 2,
          rule: 'sql-injection',
          severity: 'critical',
        }),
      ]),
    )
  })
})
