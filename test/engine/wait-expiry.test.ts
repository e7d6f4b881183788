/**
 * INPUT_TIMEOUT_SECONDS as a user meets it, in memory and on the real Redis: a review left
 * waiting for its language fails once the timeout has passed, with a message saying why, in
 * every dialect; a task answered in time is not touched.
 */
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { testApp } from '../helpers/app.js'
import { sendBody } from '../helpers/bodies.js'
import { useBackends } from '../helpers/redis.js'

const backends = useBackends()
let app: FastifyInstance | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

/** A diff whose language the review cannot tell: the task waits for the user's answer. */
const askingReview = () =>
  sendBody('--- a/snippet\n+++ b/snippet\n@@ -1 +1,2 @@\n x = 1\n+y = eval(input())\n')

async function send(server: FastifyInstance, url: string, body: unknown) {
  const response = await server.inject({ method: 'POST', url, payload: body as object })
  expect(response.statusCode).toBe(200)
  return response.json<{ status: { state: string } }>()
}

describe.each(backends)('INPUT_TIMEOUT_SECONDS, %s', (_name, settings) => {
  it('fails a task left waiting for input, and leaves one answered in time', async () => {
    app = await testApp({ ...settings(), INPUT_TIMEOUT_SECONDS: '1' })
    const server = app
    const [left, answered] = [askingReview(), askingReview()]
    for (const body of [left, answered]) {
      expect(await send(server, '/tasks/send', body)).toMatchObject({
        status: { state: 'input-required' },
      })
    }
    expect(
      await send(server, `/tasks/${answered.id}/send`, {
        message: { role: 'user', parts: [{ type: 'text', text: 'python' }] },
      }),
    ).toMatchObject({ status: { state: 'completed' } })

    const read = async (id: string) => (await server.inject(`/tasks/${id}?historyLength=5`)).json()
    await expect
      .poll(async () => (await read(left.id)) as unknown, { timeout: 5000, interval: 100 })
      .toMatchObject({
        status: {
          state: 'failed',
          message: {
            role: 'agent',
            parts: [{ type: 'text', text: 'No answer came within 1 s; the task is closed' }],
          },
        },
      })
    // The message joins the history, as every agent status message does.
    expect((await read(left.id)).history.at(-1)).toMatchObject({
      parts: [{ text: 'No answer came within 1 s; the task is closed' }],
    })
    // 1.0 clients see the same.
    const rpc = await server.inject({
      method: 'POST',
      url: '/a2a/jsonrpc',
      headers: { 'a2a-version': '1.0' },
      payload: { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: left.id } },
    })
    expect(rpc.json()).toMatchObject({ result: { status: { state: 'TASK_STATE_FAILED' } } })
    expect((await read(answered.id)).status.state).toBe('completed')
  })

  it("frees the caller's slot (MAX_ACTIVE_TASKS_PER_CALLER) of a task it closes", async () => {
    app = await testApp({
      ...settings(),
      INPUT_TIMEOUT_SECONDS: '1',
      MAX_ACTIVE_TASKS_PER_CALLER: '1',
    })
    const server = app
    const left = askingReview()
    await send(server, '/tasks/send', left)
    const echo = sendBody('hello', { metadata: { skillId: 'echo' } })
    const refused = await server.inject({ method: 'POST', url: '/tasks/send', payload: echo })
    expect(refused.json()).toMatchObject({ error: { code: 'ACTIVE_TASK_LIMIT' } })
    await expect
      .poll(async () => (await server.inject(`/tasks/${left.id}`)).json().status.state, {
        timeout: 5000,
        interval: 100,
      })
      .toBe('failed')
    expect(await send(server, '/tasks/send', echo)).toMatchObject({
      status: { state: 'completed' },
    })
  })
})
