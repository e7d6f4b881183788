/** What the Redis store promises beyond the shared contract: key layout, exact content, errors. */
import { createHash, randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { TaskChange } from '../../src/domain/events.js'
import { applyChange } from '../../src/domain/task-change.js'
import { createRedisStore, RedisEventLog } from '../../src/store/redis/index.js'
import { taskKeys } from '../../src/store/redis/keys.js'
import { SCRIPT_NAMES } from '../../src/store/redis/scripts.js'
import type { TestRedisStore } from '../helpers/redis.js'
import { createdIn, keysUnder, to, useRedisStores } from '../helpers/redis.js'

const { redis: connection, store: storeWith } = useRedisStores()

/** The part of a key Redis Cluster hashes: the first non-empty {…}, else the whole key. */
function hashTag(key: string): string {
  const open = key.indexOf('{')
  const close = key.indexOf('}', open + 1)
  return open !== -1 && close > open + 1 ? key.slice(open + 1, close) : key
}

describe('Redis store: key layout (keys.ts)', () => {
  it('puts every key under the prefix, a task’s keys on its own slot and the indexes on {idx}', async () => {
    const store = storeWith(60)
    const task = await createdIn(store, { owner: 'alice' })
    await store.tasks.apply(task.id, to('canceled'))
    // The index writes follow the task's own write; a list on this process waits for them.
    await store.tasks.list({ pageSize: 1 })
    const keys = await keysUnder(connection(), store.prefix)
    expect(keys.sort()).toEqual(
      [
        `task:{${task.id}}`,
        `task:{${task.id}}:events`,
        'tasks:{idx}:all',
        'tasks:{idx}:expiring',
        'tasks:{idx}:owner:alice',
        `tasks:{idx}:context:${task.contextId}`,
      ]
        .map((key) => store.prefix + key)
        .sort(),
    )
    for (const key of keys) {
      expect([task.id, 'idx']).toContain(hashTag(key))
    }
  })

  it('indexes the tasks written in one turn together, each in its own owner and context index', async () => {
    const store = storeWith(0)
    const context = randomUUID()
    // Created at once: their index entries go to Redis in one index.lua call.
    const [alice, anonymous, bob] = await Promise.all([
      createdIn(store, { owner: 'alice', contextId: context }),
      createdIn(store, { contextId: context }),
      createdIn(store, { owner: 'bob' }),
    ])
    const ids = async (query: { owner?: string; contextId?: string }) =>
      (await store.tasks.list({ ...query, pageSize: 10 })).tasks.map((task) => task.id).sort()
    expect(await ids({})).toEqual([alice.id, anonymous.id, bob.id].sort())
    expect(await ids({ contextId: context })).toEqual([alice.id, anonymous.id].sort())
    expect(await ids({ owner: 'alice' })).toEqual([alice.id])
    expect(await ids({ owner: 'bob' })).toEqual([bob.id])
  })

  it('refuses a prefix with a brace, which would move the hash tag', () => {
    expect(() =>
      createRedisStore({ redis: connection(), prefix: 'a2a:{x}:', terminalTtlSeconds: 0 }),
    ).toThrow(/must not contain/)
  })
})

describe('Redis store: apply.lua is applyChange', () => {
  /** Applies `change` in Redis and checks the result against the pure rule on the same task. */
  async function expectApplyChangeResult(
    store: TestRedisStore,
    taskId: string,
    change: TaskChange,
  ) {
    const before = (await store.tasks.get(taskId))!
    const { task } = await store.tasks.apply(taskId, change)
    const expected = applyChange(before, change)
    if (!expected.ok) throw new Error(`applyChange refused: ${expected.state}`)
    // An artifact change stamps updatedAt with the clock; everything else must match exactly.
    expect(task).toEqual({ ...expected.task, updatedAt: task.updatedAt })
    expect(await store.tasks.get(taskId)).toEqual(task)
  }

  it('keeps user content exact: empty arrays, large and fractional numbers, unicode', async () => {
    const store = storeWith(0)
    const metadata = { big: 1234567890123456, pi: 3.141592653589793, none: [], nested: { a: [] } }
    const task = await createdIn(store, { metadata })
    const message = {
      messageId: randomUUID(),
      role: 'agent' as const,
      parts: [],
      referenceTaskIds: [],
      metadata,
    }
    await expectApplyChangeResult(store, task.id, { ...to('working'), appendToHistory: [message] })
    await expectApplyChangeResult(store, task.id, {
      kind: 'artifact',
      artifact: {
        artifactId: 'a/1 "quoted"',
        name: 'résumé ✓',
        metadata,
        parts: [{ kind: 'data', data: { rows: [], n: 0.1 + 0.2 } }],
      },
      append: false,
      lastChunk: false,
    })
  })

  it('adds a transition only when the state changes, and replaces an artifact without append', async () => {
    const store = storeWith(0)
    const task = await createdIn(store)
    const text = (value: string) => [{ kind: 'text' as const, text: value }]
    const artifact = (parts: ReturnType<typeof text>, append: boolean) => ({
      kind: 'artifact' as const,
      artifact: { artifactId: 'doc', parts },
      append,
      lastChunk: false,
    })
    await expectApplyChangeResult(store, task.id, to('working'))
    await expectApplyChangeResult(store, task.id, to('working'))
    await expectApplyChangeResult(store, task.id, artifact([], true))
    await expectApplyChangeResult(store, task.id, artifact(text('a'), true))
    await expectApplyChangeResult(store, task.id, artifact(text('b'), false))
    await expectApplyChangeResult(store, task.id, to('input-required'))
    expect((await store.tasks.get(task.id))!.transitions.map((t) => t.state)).toEqual([
      'submitted',
      'working',
      'input-required',
    ])
  })

  it('loses no chunk when many appends to one artifact race', async () => {
    const store = storeWith(0)
    const task = await createdIn(store)
    await store.tasks.apply(task.id, to('working'))
    const chunk = (text: string) => ({
      kind: 'artifact' as const,
      artifact: { artifactId: 'log', parts: [{ kind: 'text' as const, text }] },
      append: true,
      lastChunk: false,
    })
    const texts = Array.from({ length: 50 }, (_, i) => `line ${i}`)
    await Promise.all(texts.map((text) => store.tasks.apply(task.id, chunk(text))))
    const stored = (await store.tasks.get(task.id))!
    expect(stored.artifacts).toHaveLength(1)
    expect(
      stored.artifacts[0]!.parts.map((part) => (part.kind === 'text' ? part.text : '')),
    ).toEqual(texts)
    expect(await store.events.read(task.id)).toHaveLength(52)
  })

  it('stores the event it returns, with the task’s contextId', async () => {
    const store = storeWith(0)
    const task = await createdIn(store)
    const { event } = await store.tasks.apply(task.id, to('working'))
    expect(event.event.contextId).toBe(task.contextId)
    expect((await store.events.read(task.id)).at(-1)).toEqual(event)
  })

  it('compacts an ended task’s event stream, its entries and ids unchanged', async () => {
    const store = storeWith(60)
    const task = await createdIn(store)
    await store.tasks.apply(task.id, to('working'))
    const key = taskKeys(store.prefix, task.id).events
    const usage = async () => Number(await connection().memory('USAGE', key, 'SAMPLES', 0))
    const open = await usage()
    const before = await store.events.read(task.id)

    await store.tasks.apply(task.id, to('completed'))
    const after = await store.events.read(task.id)
    expect(after.slice(0, -1)).toEqual(before)
    expect(after.at(-1)!.event).toMatchObject({ kind: 'status-update', final: true })
    // The open task's stream holds a node allocated 4 KB up front; the ended one, what it needs.
    expect(open).toBeGreaterThan(4096)
    expect(await usage()).toBeLessThan(open / 2)
    expect(await connection().ttl(key)).toBeGreaterThan(0)
  })
})

describe('Redis store: failures', () => {
  it('reports stored data that is not JSON as a StoredDataError naming the task and field', async () => {
    const store = storeWith(0)
    const task = await createdIn(store)
    await connection().hset(taskKeys(store.prefix, task.id).task, 'history', '[{"oops"')
    await expect(store.tasks.get(task.id)).rejects.toThrow(
      `Stored data of task ${task.id} has invalid JSON in the field "history"`,
    )
    await expect(store.tasks.list({ pageSize: 5 })).rejects.toMatchObject({
      name: 'StoredDataError',
    })
  })

  it('reports stored JSON that is not a task as a StoredDataError', async () => {
    const store = storeWith(0)
    const task = await createdIn(store)
    await connection().hset(taskKeys(store.prefix, task.id).task, 'status', '{"state":"sleeping"}')
    await expect(store.tasks.get(task.id)).rejects.toThrow(/is not a valid task: status\.state/)
  })

  it('reports a script failure as a StoreScriptError naming the script', async () => {
    const store = storeWith(0)
    const taskId = randomUUID()
    await connection().set(taskKeys(store.prefix, taskId).task, 'not a hash')
    await expect(store.tasks.apply(taskId, to('working'))).rejects.toMatchObject({
      name: 'StoreScriptError',
      script: 'a2aApplyV2',
      message: expect.stringContaining('WRONGTYPE'),
    })
  })
})

describe('Redis store: scripts', () => {
  it('registers each Lua file under its versioned name and runs that file’s body', async () => {
    const store = storeWith(0)
    const task = await createdIn(store)
    await store.tasks.apply(task.id, to('working'))
    await store.activeTasks.admit('alice', task.id, 1, 60_000)
    // The index is written behind the task: wait for it, as a fresh Redis has no script cached.
    await store.tasks.settled()
    for (const [file, name] of Object.entries(SCRIPT_NAMES)) {
      expect(name).toMatch(/^a2a\w+V\d+$/)
      expect(typeof (connection() as unknown as Record<string, unknown>)[name]).toBe('function')
      if (file === 'unindex') continue // runs only once a task has expired
      const lua = readFileSync(new URL(`../../src/store/redis/lua/${file}.lua`, import.meta.url))
      const sha = createHash('sha1').update(lua).digest('hex')
      expect(await connection().script('EXISTS', sha)).toEqual([1])
    }
  })
})

describe('Redis event log: follow', () => {
  it('ends within 100 ms of the abort, while blocked on Redis', async () => {
    const store = storeWith(0)
    const task = await createdIn(store)
    const controller = new AbortController()
    let abortedAt = 0
    const following = (async () => {
      for await (const _ of store.events.follow(task.id, undefined, controller.signal)) {
        setTimeout(() => {
          abortedAt = performance.now()
          controller.abort()
        }, 50)
      }
      return performance.now() - abortedAt
    })()
    expect(await following).toBeLessThan(100)
  })

  it('ends every follower when the store closes', async () => {
    const store = storeWith(0)
    const task = await createdIn(store)
    const following = (async () => {
      let count = 0
      for await (const _ of store.events.follow(task.id, undefined, new AbortController().signal)) {
        count++
        setTimeout(() => void store.close(), 20)
      }
      return count
    })()
    expect(await following).toBe(1)
  })
})

describe('Redis event log: one pub/sub connection for every follower', () => {
  /** The ids of the clients connected under the store's event-feed connection name. */
  const feedClients = async (store: TestRedisStore): Promise<string[]> => {
    const list = (await connection().client('LIST')) as string
    return list
      .split('\n')
      .filter((line) => line.includes(` name=${store.prefix}events `))
      .map((line) => /\bid=(\d+)/.exec(line)![1]!)
  }

  /** Follows `taskId` until it has seen `count` states; resolves with them. */
  const follow = (store: TestRedisStore, taskId: string, count: number, onSeen = () => {}) => {
    const controller = new AbortController()
    return (async () => {
      const seen: string[] = []
      for await (const { event } of store.events.follow(taskId, undefined, controller.signal)) {
        if (event.kind === 'status-update') seen.push(event.status.state)
        onSeen()
        if (seen.length === count) controller.abort()
      }
      return seen
    })()
  }

  it('serves 50 followers of 50 tasks with one connection, each told of its own events', async () => {
    const store = storeWith(0)
    const tasks = await Promise.all(Array.from({ length: 50 }, () => createdIn(store)))
    const following = tasks.map((task) => follow(store, task.id, 3))
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(await feedClients(store)).toHaveLength(1)

    for (const task of tasks) await store.tasks.apply(task.id, to('working'))
    for (const task of tasks) await store.tasks.apply(task.id, to('completed'))
    for (const seen of await Promise.all(following)) {
      expect(seen).toEqual(['submitted', 'working', 'completed'])
    }
  })

  it('misses no event appended while its pub/sub connection was down', async () => {
    const store = storeWith(0)
    const task = await createdIn(store)
    let seenFirst!: () => void
    const followed = new Promise<void>((resolve) => (seenFirst = resolve))
    const following = follow(store, task.id, 3, () => seenFirst())
    await followed
    await store.tasks.apply(task.id, to('working'))
    const [feed] = await feedClients(store)
    expect(feed).toBeDefined()
    // The notice of this change is published while nobody listens: it is lost.
    await connection().client('KILL', 'ID', feed!)
    await store.tasks.apply(task.id, to('completed'))
    expect(await following).toEqual(['submitted', 'working', 'completed'])
    const [again] = await feedClients(store)
    expect(again).not.toBe(feed)
  })
})

describe('Redis event log: a follower never waits on a notice that will not come', () => {
  it('reads an event appended without a notice (a writer of an earlier version) at its recheck', async () => {
    const store = storeWith(0)
    const task = await createdIn(store)
    const events = new RedisEventLog(connection(), store.prefix, { recheckMs: 200 })
    const controller = new AbortController()
    const seen: string[] = []
    const following = (async () => {
      for await (const { event } of events.follow(task.id, undefined, controller.signal)) {
        if (event.kind === 'status-update') seen.push(event.status.state)
        if (seen.length === 2) controller.abort()
      }
    })()
    await new Promise((resolve) => setTimeout(resolve, 50))
    const event = { ...to('working'), kind: 'status-update', taskId: task.id, final: false }
    // What a writer that does not publish leaves: the entry, and no word of it.
    await connection().xadd(
      taskKeys(store.prefix, task.id).events,
      '*',
      'event',
      JSON.stringify(event),
    )
    const began = Date.now()
    await following
    await events.close()
    expect(seen).toEqual(['submitted', 'working'])
    expect(Date.now() - began).toBeLessThan(1000)
  })
})
