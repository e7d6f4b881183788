/**
 * Workers whose skills differ (a process started without a SKILL_MODULES the others have, or a
 * rolling deploy that adds a skill): a worker that lacks a turn's skill writes nothing to its
 * task and hands the turn back for another worker, using an attempt, and says so in its log,
 * once per skill. When no worker that took it has the skill, the last attempt fails the task,
 * saying why. A real Redis queue, real runners and stores; workers in this process.
 */
import type { Redis } from 'ioredis'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { QueueWorker } from '../../src/dispatch/redis/worker.js'
import type { Task } from '../../src/domain/model.js'
import { Runner } from '../../src/engine/runner.js'
import { echoSkill } from '../../src/skills/echo/index.js'
import { SkillRegistry } from '../../src/skills/registry.js'
import type { Skill } from '../../src/skills/skill.js'
import { MemoryEventLog } from '../../src/store/memory/event-log.js'
import { MemoryTaskStore } from '../../src/store/memory/task-store.js'
import { WorkQueue } from '../../src/store/redis/work-queue.js'
import { keptLog } from '../helpers/log.js'
import { connectTestRedis, deleteKeysUnder, testPrefix } from '../helpers/redis.js'
import { newTask } from '../store/contract.js'

let redis: Redis
const opened: Redis[] = []
const workers: QueueWorker[] = []
let prefix = ''
beforeAll(() => {
  redis = connectTestRedis()
})
afterEach(async () => {
  for (const worker of workers.splice(0)) await worker.close(0)
  for (const connection of opened.splice(0)) connection.disconnect()
  await deleteKeysUnder(redis, prefix)
})
afterAll(() => redis.quit())

/** The tasks every worker reads and writes (as one Redis store would be). */
function sharedStore() {
  const events = new MemoryEventLog()
  return { store: new MemoryTaskStore(events), events }
}

/** A started worker with `skills`, on the test's queue; its log lines. */
async function worker(
  name: string,
  skills: Skill[],
  shared: ReturnType<typeof sharedStore>,
  maxAttempts: number,
) {
  const queue = new WorkQueue(redis, prefix, name)
  await queue.ensureGroup()
  const { lines, logger } = keptLog()
  const reader = connectTestRedis()
  opened.push(reader)
  const started = new QueueWorker({
    queue,
    connection: reader,
    redis,
    runner: new Runner({
      store: shared.store,
      skills: new SkillRegistry(skills),
      log: logger,
      skillTimeoutMs: 0,
    }),
    ...shared,
    log: logger,
    concurrency: 2,
    visibilityTimeoutMs: 30_000,
    maxAttempts,
    onEnded: () => undefined,
  })
  workers.push(started)
  started.start()
  return { queue, lines }
}

/** Creates an echo task in the shared store and queues its turn. */
async function queued(shared: ReturnType<typeof sharedStore>, queue: WorkQueue): Promise<Task> {
  const task = newTask({ skillId: 'echo' })
  await shared.store.create(task, {
    kind: 'status-update',
    taskId: task.id,
    contextId: task.contextId,
    status: task.status,
    final: false,
  })
  await queue.enqueue(task.id, queue.consumer, undefined, 0)
  return task
}

/** A skill of the worker that lacks echo (a registry needs one). */
const otherSkill: Skill = { ...echoSkill, id: 'other', name: 'Other' }

const stateOf = async (shared: ReturnType<typeof sharedStore>, taskId: string) =>
  (await shared.store.get(taskId))?.status.state

describe('QueueWorker: a turn whose skill the worker lacks', () => {
  it('is left to a worker that has the skill, which completes it', async () => {
    prefix = testPrefix()
    const shared = sharedStore()
    const without = await worker('without', [otherSkill], shared, 10)
    const task = await queued(shared, without.queue)
    // The only worker yet: it takes the turn, and hands it back.
    await expect
      .poll(() => without.lines.find((line) => line.skillId === 'echo'), { timeout: 5000 })
      .toMatchObject({
        level: 50,
        msg: 'this worker has no skill "echo", which a queued task asks for: it leaves such turns to other workers (give every process the same BUNDLED_SKILLS and SKILL_MODULES)',
        taskId: task.id,
      })
    expect(await stateOf(shared, task.id)).toBe('submitted')
    await worker('with', [echoSkill], shared, 10)

    await expect.poll(() => stateOf(shared, task.id), { timeout: 10_000 }).toBe('completed')
    // Logged once, however often it took the turn meanwhile.
    expect(without.lines.filter((line) => line.skillId === 'echo')).toHaveLength(1)
  }, 20_000)

  it('fails its task on the last attempt when no worker that took it has the skill', async () => {
    prefix = testPrefix()
    const shared = sharedStore()
    const without = await worker('without', [otherSkill], shared, 2)
    const task = await queued(shared, without.queue)

    await expect.poll(() => stateOf(shared, task.id), { timeout: 10_000 }).toBe('failed')
    const failed = (await shared.store.get(task.id))!
    expect(failed.status.message?.parts).toEqual([
      {
        kind: 'text',
        text: 'The task failed after 2 attempts: no worker that took it offers its skill "echo"',
      },
    ])
    expect(failed.transitions.map((status) => status.state)).toEqual(['submitted', 'failed'])
    await expect.poll(() => without.queue.depth()).toBe(0)
  }, 20_000)
})
