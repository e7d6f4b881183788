/**
 * An API process whose turns no worker reads says so: a warning once turns wait a visibility
 * timeout with no worker alive (every worker stopped, or on another REDIS_KEY_PREFIX), and a
 * line when one reads the queue again; `a2a_queue_workers` counts the workers alive. Real
 * apps (ROLE api, then ROLE worker) on the real Redis, under a prefix of their own.
 */
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { testApp } from '../helpers/app.js'
import { sendBody } from '../helpers/bodies.js'
import { keptLog } from '../helpers/log.js'
import { useRedisSettings } from '../helpers/redis.js'

const onRedis = useRedisSettings()
const apps: FastifyInstance[] = []
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close()
})

/** One server's settings: its own prefix, a short visibility timeout and send wait. */
const sharedRedis = (): Record<string, string> => ({
  ...onRedis(),
  QUEUE_VISIBILITY_TIMEOUT_MS: '500',
  SEND_WAIT_MS: '100',
})

const gauge = async (app: FastifyInstance, name: string) =>
  Number(new RegExp(`^${name} (\\d+)$`, 'm').exec((await app.inject('/metrics')).body)?.[1])

describe('an API process whose queue no worker reads', () => {
  it('warns once turns wait with no worker, and says when a worker reads again', async () => {
    const settings = sharedRedis()
    const { lines, logger } = keptLog('info')
    const api = await testApp({ ...settings, ROLE: 'api' }, { logger })
    apps.push(api)
    const sent = await api.inject({
      method: 'POST',
      url: '/tasks/send',
      payload: sendBody('hi', { metadata: { skillId: 'echo' } }),
    })
    expect(sent.json().status.state).toBe('submitted')

    await expect
      .poll(() => lines.find((line) => line.msg.includes('no worker has read the queue')), {
        timeout: 5000,
      })
      .toMatchObject({
        level: 40,
        turns: 1,
        msg: `1 turn in the work queue, and no worker has read the queue for 0.5 s: their tasks wait; start a worker (ROLE=worker or all) with the same REDIS_URL and REDIS_KEY_PREFIX ("${settings.REDIS_KEY_PREFIX}")`,
      })
    expect(await gauge(api, 'a2a_queue_workers')).toBe(0)
    expect(await gauge(api, 'a2a_queue_turns')).toBe(1)

    const worker = await testApp({ ...settings, ROLE: 'worker' })
    apps.push(worker)
    await expect
      .poll(async () => (await api.inject(`/tasks/${sent.json().id}`)).json().status.state, {
        timeout: 5000,
      })
      .toBe('completed')
    expect(await gauge(api, 'a2a_queue_workers')).toBe(1)
    await expect
      .poll(() => lines.some((line) => line.msg === 'a worker reads the work queue again'), {
        timeout: 5000,
      })
      .toBe(true)
    // Said once per episode, not on every check.
    expect(lines.filter((line) => line.msg.includes('no worker has read the queue'))).toHaveLength(
      1,
    )

    // A worker that stops leaves the count at once.
    await worker.close()
    apps.splice(apps.indexOf(worker), 1)
    expect(await gauge(api, 'a2a_queue_workers')).toBe(0)
  })

  it('warns of a worker that does not run a skill this process serves, once', async () => {
    const settings = sharedRedis()
    const { lines, logger } = keptLog('info')
    const api = await testApp({ ...settings, ROLE: 'api' }, { logger })
    apps.push(api)
    // The API serves review-pr and echo; this worker runs echo only.
    const worker = await testApp({ ...settings, ROLE: 'worker', BUNDLED_SKILLS: 'echo' })
    apps.push(worker)
    const lacking = () => lines.filter((line) => line.msg.includes('does not run skill'))
    await expect.poll(() => lacking().length, { timeout: 5000 }).toBe(1)
    expect(lacking()[0]).toMatchObject({
      level: 40,
      missing: ['review-pr'],
      msg: expect.stringMatching(
        /^worker \S+ does not run skill review-pr, which this process serves: a turn of it that it takes fails there and uses up an attempt; give every process the same BUNDLED_SKILLS and SKILL_MODULES$/,
      ),
    })
    // Not again on the next checks.
    await new Promise((resolve) => setTimeout(resolve, 1200))
    expect(lacking()).toHaveLength(1)
  })

  it('says nothing while the queue is empty, worker or not', async () => {
    const settings = sharedRedis()
    const { lines, logger } = keptLog('info')
    const api = await testApp({ ...settings, ROLE: 'api' }, { logger })
    apps.push(api)
    await new Promise((resolve) => setTimeout(resolve, 1200))
    expect(lines.filter((line) => /work queue|does not run skill/.test(line.msg))).toEqual([])
  })
})
