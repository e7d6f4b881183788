/** Closing the app with turns still running: SHUTDOWN_GRACE_MS is honoured, whatever its length. */
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { testApp } from '../helpers/app.js'
import { stuckSkill } from '../helpers/skills.js'

describe('shutdown', () => {
  it('waits a grace longer than 10 s for a running turn, then fails its task and closes', async () => {
    const graceMs = 10_500
    const app = await testApp(
      { SHUTDOWN_GRACE_MS: String(graceMs), SEND_WAIT_MS: '0' },
      { skills: [stuckSkill] },
    )
    const id = randomUUID()
    const sent = await app.inject({
      method: 'POST',
      url: '/tasks/send',
      payload: { id, message: { role: 'user', parts: [{ type: 'text', text: 'hang' }] } },
    })
    expect(sent.json().status.state).not.toBe('failed')
    const started = Date.now()
    await expect(app.close()).resolves.toBeUndefined()
    expect(Date.now() - started).toBeGreaterThanOrEqual(graceMs - 50)
    const task = await app.tasks.get(id)
    expect(task.status).toMatchObject({
      state: 'failed',
      message: { parts: [{ kind: 'text', text: 'The server shut down before the task finished' }] },
    })
  }, 30_000)
})
