/** Closing the app with turns still running: SHUTDOWN_GRACE_MS is honoured, whatever its length. */
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { bearer } from '../helpers/auth.js'
import { listening, testApp } from '../helpers/app.js'
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

  it('refuses requests that arrive while it drains with a 503 in each dialect, and says it is closing on /readyz', async () => {
    const app = await testApp(
      { SHUTDOWN_GRACE_MS: '1500', SEND_WAIT_MS: '0' },
      { skills: [stuckSkill] },
    )
    const base = await listening(app)
    const sent = await app.inject({
      method: 'POST',
      url: '/tasks/send',
      payload: {
        id: randomUUID(),
        message: { role: 'user', parts: [{ type: 'text', text: 'hang' }] },
      },
    })
    expect(sent.statusCode).toBe(200)
    const closed = app.close()
    // The stuck turn holds the drain for the whole grace: ask meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 100))
    const headers = { authorization: bearer(), 'content-type': 'application/json' }

    const seed = await fetch(`${base}/tasks/${randomUUID()}`, { headers })
    expect(seed.status).toBe(503)
    expect(seed.headers.get('retry-after')).toBe('1')
    expect(seed.headers.get('connection')).toBe('close')
    expect(((await seed.json()) as { error: unknown }).error).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: 'The server is shutting down; retry the request',
      retryAfterSeconds: 1,
    })

    const rpc = await fetch(`${base}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { ...headers, 'a2a-version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'GetTask', params: { id: 'x' } }),
    })
    expect(await rpc.json()).toMatchObject({
      jsonrpc: '2.0',
      error: { message: 'The server is shutting down; retry the request' },
    })

    const rest = await fetch(`${base}/a2a/rest/tasks/x`, {
      headers: { ...headers, 'a2a-version': '1.0' },
    })
    expect(rest.status).toBe(503)
    expect(((await rest.json()) as { error: unknown }).error).toMatchObject({
      code: 503,
      status: 'UNAVAILABLE',
    })

    const ready = await fetch(`${base}/readyz`)
    expect(ready.status).toBe(503)
    expect(await ready.json()).toEqual({ status: 'closing' })
    await closed
  }, 15_000)
})
