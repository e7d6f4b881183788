/**
 * The contract every TaskStore + EventLog pair must meet (see src/store/task-store.ts and
 * src/store/event-log.ts). Each implementation's test file calls this with a factory.
 */
import { randomUUID } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { InvalidRequestError, TaskNotFoundError } from '../../src/domain/errors.js'
import type { StatusUpdateEvent } from '../../src/domain/events.js'
import type { Task, TaskState } from '../../src/domain/model.js'
import { textPart } from '../../src/domain/parts.js'
import type { EventLog } from '../../src/store/event-log.js'
import type { TaskStore } from '../../src/store/task-store.js'
import { TransitionRejectedError } from '../../src/store/task-store.js'

export interface StorePair {
  tasks: TaskStore
  events: EventLog
  /** Removes everything this pair wrote. */
  cleanup(): Promise<void>
}

export function newTask(overrides: Partial<Task> = {}): Task {
  const timestamp = new Date().toISOString()
  const status = { state: 'submitted' as const, timestamp }
  return {
    id: randomUUID(),
    contextId: randomUUID(),
    skillId: 'echo',
    status,
    history: [{ messageId: randomUUID(), role: 'user', parts: [textPart('hi')] }],
    artifacts: [],
    transitions: [status],
    requestHash: 'hash',
    createdAt: timestamp,
    updatedAt: timestamp,
    ...overrides,
  }
}

/** The event a created task starts its log with. */
export const submitted = (task: Task): StatusUpdateEvent => ({
  kind: 'status-update',
  taskId: task.id,
  contextId: task.contextId,
  status: task.status,
  final: false,
})

const status = (state: TaskState) => ({
  kind: 'status' as const,
  status: { state, timestamp: new Date().toISOString() },
})

export function storeContract(name: string, makePair: () => Promise<StorePair>): void {
  describe(`${name}: TaskStore and EventLog contract`, () => {
    let pair: StorePair
    beforeEach(async () => {
      pair = await makePair()
    })
    afterEach(() => pair.cleanup())

    const created = async () => {
      const task = newTask()
      await pair.tasks.create(task, submitted(task))
      return task
    }

    it('creates a task and its first event', async () => {
      const task = await created()
      expect(await pair.tasks.get(task.id)).toEqual(task)
      const events = await pair.events.read(task.id)
      expect(events).toHaveLength(1)
      expect(events[0]!.event).toEqual(submitted(task))
    })

    it('creates once: a second create with the same id returns the stored task and writes nothing', async () => {
      const task = await created()
      const again = await pair.tasks.create({ ...task, requestHash: 'other' }, submitted(task))
      expect(again).toEqual({ task, created: false })
      expect(await pair.events.read(task.id)).toHaveLength(1)
    })

    it('lets exactly one of many concurrent creates with one id win', async () => {
      const task = newTask()
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          pair.tasks.create({ ...task, requestHash: `h${i}` }, submitted(task)),
        ),
      )
      expect(results.filter((r) => r.created)).toHaveLength(1)
      expect(await pair.events.read(task.id)).toHaveLength(1)
    })

    it('returns undefined for a task it does not have', async () => {
      expect(await pair.tasks.get(randomUUID())).toBeUndefined()
    })

    it('applies a transition with its history entry and one event', async () => {
      const task = await created()
      const message = { messageId: randomUUID(), role: 'user' as const, parts: [textPart('more')] }
      const { task: updated, event } = await pair.tasks.apply(task.id, {
        ...status('working'),
        appendToHistory: [message],
      })
      expect(updated.status.state).toBe('working')
      expect(updated.history.at(-1)).toEqual(message)
      expect(updated.transitions.map((t) => t.state)).toEqual(['submitted', 'working'])
      expect(event.event).toMatchObject({ kind: 'status-update', final: false })
      expect(await pair.tasks.get(task.id)).toEqual(updated)
      expect((await pair.events.read(task.id)).map((e) => e.id)).toContain(event.id)
    })

    it('rejects a change the state machine forbids, naming the current state, and writes nothing', async () => {
      const task = await created()
      await expect(pair.tasks.apply(task.id, status('completed'))).rejects.toMatchObject({
        name: 'TransitionRejectedError',
        state: 'submitted',
      })
      expect(await pair.tasks.get(task.id)).toEqual(task)
      expect(await pair.events.read(task.id)).toHaveLength(1)
    })

    it('honours a narrowing `from` on a status change', async () => {
      const task = await created()
      await pair.tasks.apply(task.id, status('working'))
      await expect(
        pair.tasks.apply(task.id, { ...status('working'), from: ['input-required'] }),
      ).rejects.toBeInstanceOf(TransitionRejectedError)
    })

    it('never leaves a terminal state, and accepts no artifact after it', async () => {
      const task = await created()
      await pair.tasks.apply(task.id, status('working'))
      await pair.tasks.apply(task.id, status('completed'))
      await expect(pair.tasks.apply(task.id, status('canceled'))).rejects.toMatchObject({
        state: 'completed',
      })
      await expect(
        pair.tasks.apply(task.id, {
          kind: 'artifact',
          artifact: { artifactId: 'a', parts: [textPart('late')] },
          append: false,
          lastChunk: true,
        }),
      ).rejects.toMatchObject({ state: 'completed' })
    })

    it('lets exactly one of two concurrent cancels win', async () => {
      const task = await created()
      await pair.tasks.apply(task.id, status('working'))
      const results = await Promise.allSettled([
        pair.tasks.apply(task.id, status('canceled')),
        pair.tasks.apply(task.id, status('canceled')),
      ])
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
      const stored = await pair.tasks.get(task.id)
      expect(stored!.transitions.map((t) => t.state)).toEqual(['submitted', 'working', 'canceled'])
    })

    it('lets exactly one of a cancel and a completion racing win, leaving a consistent task', async () => {
      for (let round = 0; round < 20; round++) {
        const task = await created()
        await pair.tasks.apply(task.id, status('working'))
        const [cancel, complete] = await Promise.allSettled([
          pair.tasks.apply(task.id, status('canceled')),
          pair.tasks.apply(task.id, status('completed')),
        ])
        expect([cancel.status, complete.status].filter((s) => s === 'fulfilled')).toHaveLength(1)
        const stored = (await pair.tasks.get(task.id))!
        const events = await pair.events.read(task.id)
        expect(events).toHaveLength(3)
        expect((events.at(-1)!.event as StatusUpdateEvent).status.state).toBe(stored.status.state)
      }
    })

    it('appends artifact chunks to the artifact with the same id', async () => {
      const task = await created()
      await pair.tasks.apply(task.id, status('working'))
      const chunk = (text: string, append: boolean) =>
        pair.tasks.apply(task.id, {
          kind: 'artifact',
          artifact: { artifactId: 'doc', name: 'doc', parts: [textPart(text)] },
          append,
          lastChunk: false,
        })
      await chunk('a', false)
      const { task: updated } = await chunk('b', true)
      expect(updated.artifacts).toEqual([
        { artifactId: 'doc', name: 'doc', parts: [textPart('a'), textPart('b')] },
      ])
    })

    it('applies several changes as one step, an event each, in order', async () => {
      const task = await created()
      const artifact = {
        kind: 'artifact' as const,
        artifact: { artifactId: 'out', parts: [textPart('echo')] },
        append: false,
        lastChunk: true,
      }
      const { task: updated, events } = await pair.tasks.applyAll(task.id, [
        status('working'),
        artifact,
        status('completed'),
      ])
      expect(updated.status.state).toBe('completed')
      expect(updated.artifacts).toEqual([artifact.artifact])
      expect(updated.transitions.map((t) => t.state)).toEqual(['submitted', 'working', 'completed'])
      expect(await pair.tasks.get(task.id)).toEqual(updated)
      const log = await pair.events.read(task.id)
      expect(log.map((e) => e.event.kind)).toEqual([
        'status-update',
        'status-update',
        'artifact-update',
        'status-update',
      ])
      expect(events.map((e) => e?.id)).toEqual(log.slice(1).map((e) => e.id))
    })

    it('applies chunks, replacements and new artifacts in one step as it would one by one', async () => {
      const artifact = (artifactId: string, text: string, append = false) => ({
        kind: 'artifact' as const,
        artifact: { artifactId, name: artifactId, parts: [textPart(text)] },
        append,
        lastChunk: false,
      })
      const question = {
        messageId: randomUUID(),
        role: 'agent' as const,
        parts: [textPart('more?')],
      }
      const asked = {
        kind: 'status' as const,
        status: {
          state: 'input-required' as const,
          timestamp: new Date().toISOString(),
          message: question,
        },
        appendToHistory: [question],
      }
      const changes = [
        status('working'),
        artifact('a', 'a1'),
        artifact('a', 'a2', true),
        artifact('b', 'b1'),
        artifact('a', 'a3'),
        artifact('b', 'b2', true),
        asked,
      ]
      const together = await created()
      const { task: batched } = await pair.tasks.applyAll(together.id, changes)
      const apart = await created()
      let single: Task | undefined
      for (const change of changes) single = (await pair.tasks.apply(apart.id, change)).task
      // What the changes made: all but each task's own first message and first status.
      const made = (task: Task) => ({
        status: task.status,
        artifacts: task.artifacts,
        history: task.history.slice(1),
        transitions: task.transitions.slice(1),
      })
      expect(made(batched)).toEqual(made(single!))
      expect(batched.artifacts).toEqual([
        { artifactId: 'a', name: 'a', parts: [textPart('a3')] },
        { artifactId: 'b', name: 'b', parts: [textPart('b1'), textPart('b2')] },
      ])
      expect(batched.history.map((m) => m.role)).toEqual(['user', 'agent'])
      expect(await pair.tasks.get(together.id)).toEqual(batched)
    })

    it('stores hundreds of artifacts written in one step, in order', async () => {
      const task = await created()
      const artifacts = Array.from({ length: 600 }, (_, i) => ({
        kind: 'artifact' as const,
        artifact: { artifactId: `part-${i}`, parts: [textPart(String(i))] },
        append: false,
        lastChunk: true,
      }))
      const { task: updated } = await pair.tasks.applyAll(task.id, [
        status('working'),
        ...artifacts,
      ])
      expect(updated.artifacts).toEqual(artifacts.map((change) => change.artifact))
      expect(await pair.tasks.get(task.id)).toEqual(updated)
    })

    it('creates a task that already holds hundreds of artifacts', async () => {
      const task = newTask({
        artifacts: Array.from({ length: 600 }, (_, i) => ({
          artifactId: `part-${i}`,
          parts: [textPart(String(i))],
        })),
      })
      await pair.tasks.create(task, submitted(task))
      expect(await pair.tasks.get(task.id)).toEqual(task)
    })

    it('skips a change the state left by the earlier ones refuses, and applies the rest', async () => {
      const task = await created()
      const { task: updated, events } = await pair.tasks.applyAll(task.id, [
        status('completed'),
        status('working'),
        { ...status('working'), from: ['input-required'] },
        status('canceled'),
        {
          kind: 'artifact',
          artifact: { artifactId: 'late', parts: [textPart('late')] },
          append: false,
          lastChunk: true,
        },
      ])
      expect(events.map((e) => e !== undefined)).toEqual([false, true, false, true, false])
      expect(updated.status.state).toBe('canceled')
      expect(updated.artifacts).toEqual([])
      expect(await pair.events.read(task.id)).toHaveLength(3)
    })

    it('throws TaskNotFoundError when applying several changes to a missing task', async () => {
      await expect(pair.tasks.applyAll(randomUUID(), [status('working')])).rejects.toBeInstanceOf(
        TaskNotFoundError,
      )
    })

    it('throws TaskNotFoundError when applying to a missing task', async () => {
      await expect(pair.tasks.apply(randomUUID(), status('working'))).rejects.toBeInstanceOf(
        TaskNotFoundError,
      )
    })

    it('keeps what it stores safe from changes to a returned task (a copy, or frozen)', async () => {
      const task = await created()
      const returned = (await pair.tasks.get(task.id))!
      const attempt = (change: () => void) => {
        try {
          change()
        } catch (error) {
          expect(error).toBeInstanceOf(TypeError) // frozen
        }
      }
      attempt(() => (returned.status.state = 'completed'))
      attempt(() => returned.history.push(returned.history[0]!))
      expect(await pair.tasks.get(task.id)).toEqual(task)
    })

    it('keeps an ended task as it was written, whatever is done to a returned one', async () => {
      const task = await created()
      await pair.tasks.apply(task.id, status('working'))
      const { task: ended } = await pair.tasks.apply(task.id, {
        ...status('completed'),
        appendToHistory: [{ messageId: randomUUID(), role: 'agent', parts: [textPart('done')] }],
      })
      const written = structuredClone(ended)
      const returned = (await pair.tasks.get(task.id))!
      expect(returned).toEqual(written)
      for (const change of [
        () => (returned.status.state = 'working'),
        () => returned.history.push(returned.history[0]!),
        () => (ended.status.state = 'working'),
        () => ended.history.pop(),
      ]) {
        try {
          change()
        } catch (error) {
          expect(error).toBeInstanceOf(TypeError) // frozen
        }
      }
      expect(await pair.tasks.get(task.id)).toEqual(written)
      expect(await pair.tasks.create({ ...task, requestHash: 'other' }, submitted(task))).toEqual({
        task: written,
        created: false,
      })
      await expect(pair.tasks.applyAll(task.id, [status('canceled')])).resolves.toMatchObject({
        task: written,
        events: [undefined],
      })
      const events = await pair.events.read(task.id)
      expect(
        events.map(({ event }) => event.kind === 'status-update' && event.status.state),
      ).toEqual(['submitted', 'working', 'completed'])
    })

    it('reads events after a cursor, in order, and knows the last id', async () => {
      const task = await created()
      await pair.tasks.apply(task.id, status('working'))
      await pair.tasks.apply(task.id, status('completed'))
      const all = await pair.events.read(task.id)
      expect(all).toHaveLength(3)
      expect(await pair.events.read(task.id, all[0]!.id)).toEqual(all.slice(1))
      expect(await pair.events.read(task.id, all[2]!.id)).toEqual([])
      expect(await pair.events.lastId(task.id)).toBe(all[2]!.id)
      expect(await pair.events.lastId(randomUUID())).toBeUndefined()
    })

    it('rejects a cursor that is not one of its ids', async () => {
      const task = await created()
      await expect(pair.events.read(task.id, 'garbage')).rejects.toBeInstanceOf(InvalidRequestError)
    })

    it('follows: the backlog after the cursor, then live events, each exactly once', async () => {
      const task = await created()
      const controller = new AbortController()
      const seen: string[] = []
      const following = (async () => {
        for await (const { event } of pair.events.follow(task.id, undefined, controller.signal)) {
          if (event.kind === 'status-update') seen.push(event.status.state)
          if (seen.length === 3) controller.abort()
        }
      })()
      await pair.tasks.apply(task.id, status('working'))
      await pair.tasks.apply(task.id, status('completed'))
      await following
      expect(seen).toEqual(['submitted', 'working', 'completed'])
    })

    it('stops following when the signal aborts', async () => {
      const task = await created()
      const controller = new AbortController()
      const following = (async () => {
        let count = 0
        for await (const _ of pair.events.follow(task.id, undefined, controller.signal)) count++
        return count
      })()
      setTimeout(() => controller.abort(), 30)
      expect(await following).toBe(1)
    })

    describe('overdueWaits', () => {
      const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString()
      const ms = (second: number) => Date.parse(at(second))
      /** A task taken through `states`, the n-th at second `seconds[n]`. */
      const through = async (states: [TaskState, number][]) => {
        const task = newTask()
        await pair.tasks.create(task, submitted(task))
        for (const [state, second] of states) {
          await pair.tasks.apply(task.id, {
            kind: 'status',
            status: { state, timestamp: at(second) },
          })
        }
        return task.id
      }

      it('lists the tasks waiting on their caller since the cutoff or earlier, and no others', async () => {
        const asked = await through([
          ['working', 1],
          ['input-required', 2],
        ])
        const authorizing = await through([
          ['working', 1],
          ['auth-required', 3],
        ])
        const askedLater = await through([
          ['working', 1],
          ['input-required', 8],
        ])
        await through([['working', 3]])
        await through([
          ['working', 1],
          ['input-required', 2],
          ['working', 3],
        ])
        await through([
          ['working', 1],
          ['input-required', 2],
          ['working', 3],
          ['completed', 4],
        ])

        expect((await pair.tasks.overdueWaits(ms(5), 10)).sort()).toEqual(
          [asked, authorizing].sort(),
        )
        expect((await pair.tasks.overdueWaits(ms(8), 10)).sort()).toEqual(
          [asked, authorizing, askedLater].sort(),
        )
        expect(await pair.tasks.overdueWaits(ms(1), 10)).toEqual([])
      })

      it('lists no more than its limit', async () => {
        for (let i = 0; i < 3; i++)
          await through([
            ['working', 1],
            ['input-required', 2],
          ])
        expect(await pair.tasks.overdueWaits(ms(5), 2)).toHaveLength(2)
      })
    })

    describe('list', () => {
      const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString()
      const seed = async () => {
        const context = randomUUID()
        const tasks = [
          newTask({ contextId: context, owner: 'alice', updatedAt: at(1) }),
          newTask({ contextId: context, owner: 'alice', updatedAt: at(3) }),
          newTask({ owner: 'bob', updatedAt: at(2) }),
          newTask({ contextId: context, owner: 'alice', updatedAt: at(4) }),
        ]
        for (const task of tasks) await pair.tasks.create(task, submitted(task))
        return { context, tasks }
      }

      it('lists newest update first, filtered by owner', async () => {
        const { tasks } = await seed()
        const page = await pair.tasks.list({ owner: 'alice', pageSize: 10 })
        expect(page.tasks.map((t) => t.id)).toEqual([tasks[3]!.id, tasks[1]!.id, tasks[0]!.id])
        expect(page.totalSize).toBe(3)
        expect(page.nextPageToken).toBeUndefined()
      })

      it('filters by context, state and update time', async () => {
        const { context, tasks } = await seed()
        await pair.tasks.apply(tasks[0]!.id, {
          kind: 'status',
          status: { state: 'working', timestamp: at(5) },
        })
        const working = await pair.tasks.list({
          contextId: context,
          state: 'working',
          pageSize: 10,
        })
        expect(working.tasks.map((t) => t.id)).toEqual([tasks[0]!.id])
        const recent = await pair.tasks.list({ owner: 'alice', updatedSince: at(4), pageSize: 10 })
        expect(recent.tasks.map((t) => t.id)).toEqual([tasks[0]!.id, tasks[3]!.id])
      })

      it('lists ended tasks by their state, as they were written', async () => {
        const { context, tasks } = await seed()
        const ended: Task[] = []
        for (const [i, task] of [tasks[0]!, tasks[3]!].entries()) {
          await pair.tasks.apply(task.id, status('working'))
          const completed = {
            kind: 'status' as const,
            status: { state: 'completed' as const, timestamp: at(5 + i) },
          }
          ended.push((await pair.tasks.apply(task.id, completed)).task)
        }
        const page = await pair.tasks.list({ contextId: context, state: 'completed', pageSize: 1 })
        expect(page.tasks).toEqual([ended[1]])
        expect(page.totalSize).toBe(2)
        const next = await pair.tasks.list({
          contextId: context,
          state: 'completed',
          pageSize: 1,
          pageToken: page.nextPageToken!,
        })
        expect(next.tasks).toEqual([ended[0]])
        expect(next.nextPageToken).toBeUndefined()
      })

      it('pages through every match once, with a token per page', async () => {
        const { tasks } = await seed()
        const seen: string[] = []
        let pageToken: string | undefined
        let pages = 0
        do {
          const page = await pair.tasks.list({
            owner: 'alice',
            pageSize: 2,
            ...(pageToken && { pageToken }),
          })
          seen.push(...page.tasks.map((t) => t.id))
          pageToken = page.nextPageToken
          pages++
        } while (pageToken)
        expect(pages).toBe(2)
        expect(seen).toEqual([tasks[3]!.id, tasks[1]!.id, tasks[0]!.id])
      })

      it('lists hundreds of tasks created at once', async () => {
        const owner = `carol-${randomUUID()}`
        const tasks = Array.from({ length: 600 }, () => newTask({ owner }))
        await Promise.all(tasks.map((task) => pair.tasks.create(task, submitted(task))))
        const page = await pair.tasks.list({ owner, pageSize: 10 })
        expect(page.totalSize).toBe(600)
        expect(page.tasks).toHaveLength(10)
      })

      it('rejects a page token it did not issue', async () => {
        await expect(pair.tasks.list({ pageSize: 5, pageToken: 'bogus' })).rejects.toBeInstanceOf(
          InvalidRequestError,
        )
      })
    })
  })
}
