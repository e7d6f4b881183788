/**
 * The embedded store under sustained load, in a real process with a small heap: the server
 * outlives far more tasks than its heap could hold, because MAX_TASKS_IN_MEMORY bounds what it
 * keeps. The newest tasks stay readable and the oldest ended ones make room. (With no bound,
 * the same process dies of "JavaScript heap out of memory" before the last task.)
 */
import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { bearer, TEST_SECRET } from '../helpers/auth.js'
import { startBuiltServer } from '../helpers/built-server.js'
import type { BuiltServer } from '../helpers/built-server.js'

const HEAP_MB = 64
const TASKS = 4_000
const KEPT = 200

let server: BuiltServer | undefined
afterEach(() => {
  server?.stop()
  server = undefined
})

describe('an embedded server under sustained load', () => {
  it(`keeps at most MAX_TASKS_IN_MEMORY tasks, and so survives ${TASKS} in a ${HEAP_MB} MB heap`, async () => {
    server = await startBuiltServer({
      NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}`,
      AUTH_JWT_SECRET: TEST_SECRET,
      AUDIT_SINK: 'off',
      RATE_LIMIT_MAX: '0',
      MAX_TASKS_IN_MEMORY: String(KEPT),
    })
    const url = `http://127.0.0.1:${server.port}`
    const headers = { 'content-type': 'application/json', authorization: bearer() }
    const text = 'x'.repeat(16 * 1024)
    const ids: string[] = []
    const sendOne = async (id: string) => {
      const response = await fetch(`${url}/tasks/send`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          id,
          message: { role: 'user', parts: [{ type: 'text', text }], metadata: { skillId: 'echo' } },
        }),
      })
      expect(response.status).toBe(200)
      await response.arrayBuffer()
    }
    let next = 0
    const connection = async () => {
      while (next < TASKS) {
        const id = randomUUID()
        ids[next++] = id
        await sendOne(id)
      }
    }
    await Promise.all(Array.from({ length: 8 }, connection))

    expect((await fetch(`${url}/healthz`)).status).toBe(200)
    const read = (id: string) => fetch(`${url}/tasks/${id}`, { headers })
    expect((await read(ids[0]!)).status).toBe(404)
    expect(await (await read(ids.at(-1)!)).json()).toMatchObject({
      status: { state: 'completed' },
    })
  }, 120_000)
})
