/**
 * The work queue: a Redis Stream read through one consumer group, so that each turn goes to
 * exactly one worker, a turn whose worker died is found in the group's pending entries list
 * (PEL) and reclaimed with XCLAIM, and the PEL's delivery counter says how many workers tried.
 *
 * An entry is one turn to run: `task` (the task id), `origin` (the consumer name of the process
 * that dispatched it, told when the turn ends), `attempts` (attempts used up before this entry,
 * non-zero only for a turn handed back by a worker that shut down) and `request` (the request
 * that started it, when one did). Entries are deleted once done, so the stream holds only
 * waiting and running turns.
 *
 * Every method fails as ServiceUnavailableError while Redis cannot serve (whileReachable), as
 * the task store does: the worker's log lines then say what happened to Redis.
 */
import type { Redis } from 'ioredis'
import { whileReachable } from './connection.js'
import { queueKeys } from './keys.js'
import type { QueueScripts } from './scripts.js'
import { defineQueueScripts } from './scripts.js'
import { TurnBatch } from './turn-batch.js'

/** A turn taken from the queue. */
export interface QueuedTurn {
  /** The stream entry id. */
  id: string
  taskId: string
  /** The consumer name of the process that dispatched the turn. */
  origin: string
  /** Attempts used up before this entry was added. */
  priorAttempts: number
  /** The request that started the turn, for the audit trail of its writes. */
  requestId?: string
}

/** A pending entry that no worker has touched for a while. */
export interface IdleTurn {
  id: string
  consumer: string
  idleMs: number
  /** How often the entry has been delivered (read or claimed). */
  deliveries: number
}

/** A worker alive on the queue, by its consumer name. */
export interface LiveWorker {
  name: string
  skillIds: string[]
}

type StreamEntry = [id: string, fields: string[]]

export class WorkQueue {
  readonly keys: ReturnType<typeof queueKeys>
  readonly #scripts: QueueScripts
  readonly #acked = new TurnBatch<readonly string[]>((batches) =>
    whileReachable(() =>
      this.#scripts['queue-ack']([this.keys.stream], [this.keys.group, ...batches.flat()]),
    ),
  )

  constructor(
    private readonly redis: Redis,
    prefix: string,
    /** This process's name in the consumer group; unique per process. */
    readonly consumer: string,
  ) {
    this.keys = queueKeys(prefix)
    this.#scripts = defineQueueScripts(redis)
  }

  /** Creates the stream and its group if missing (they vanish with a Redis that lost its data). */
  ensureGroup(): Promise<void> {
    return whileReachable(async () => {
      try {
        await this.redis.xgroup('CREATE', this.keys.stream, this.keys.group, '0', 'MKSTREAM')
      } catch (error) {
        if (!(error instanceof Error && error.message.startsWith('BUSYGROUP'))) throw error
      }
    })
  }

  /**
   * Adds a turn for any worker to take; resolves with the entry id. `origin`: the consumer name
   * of the dispatching process; `requestId`: the request that started the turn, if any. With
   * `take` > 0 this consumer also takes up to that many of the oldest waiting turns, in the same
   * step (queue-add.lua): usually just the new one, which then needs no wake-up read.
   */
  enqueue(
    taskId: string,
    origin: string,
    requestId?: string,
    take = 0,
  ): Promise<{ id: string; taken: QueuedTurn[] }> {
    return whileReachable(async () => {
      const { stream, group } = this.keys
      const reply = await this.#scripts['queue-add'](
        [stream],
        [group, this.consumer, String(take), ...entry(taskId, origin, requestId)],
      )
      const [id, taken] = Array.isArray(reply) ? (reply as [unknown, unknown]) : []
      if (typeof id !== 'string' || !Array.isArray(taken)) {
        throw new Error(`queue-add answered ${String(reply)}`)
      }
      return { id, taken: (taken as StreamEntry[]).flatMap(queuedTurn) }
    })
  }

  /**
   * Queues a turn for the task unless one is queued or running already (queue-ensure.lua);
   * `added` says which. For a task whose turn may never have reached the queue.
   */
  ensure(
    taskId: string,
    origin: string,
    requestId?: string,
  ): Promise<{ id: string; added: boolean }> {
    return whileReachable(async () => {
      const fields = entry(taskId, origin, requestId)
      const reply = await this.#scripts['queue-ensure']([this.keys.stream], [taskId, ...fields])
      const [added, id] = Array.isArray(reply) ? (reply as unknown[]) : []
      if (typeof id !== 'string') throw new Error(`queue-ensure answered ${String(reply)}`)
      return { id, added: added === 1 }
    })
  }

  /**
   * Takes up to `count` new turns, waiting up to `blockMs` for one. `connection` must be one
   * this queue's user keeps for blocking reads: a blocked connection serves nobody else.
   */
  take(connection: Redis, count: number, blockMs: number): Promise<QueuedTurn[]> {
    return whileReachable(() => this.#take(connection, count, blockMs))
  }

  async #take(connection: Redis, count: number, blockMs: number): Promise<QueuedTurn[]> {
    const { stream, group } = this.keys
    const read = () =>
      connection.xreadgroup(
        'GROUP',
        group,
        this.consumer,
        'COUNT',
        count,
        'BLOCK',
        blockMs,
        'STREAMS',
        stream,
        '>',
      )
    let reply: unknown
    try {
      reply = await read()
    } catch (error) {
      if (!isNoGroup(error)) throw error
      await this.ensureGroup()
      reply = await read()
    }
    const streams = (reply ?? []) as [string, StreamEntry[]][]
    return (streams.find(([key]) => key === stream)?.[1] ?? []).flatMap(queuedTurn)
  }

  /**
   * Marks turns done and deletes their entries. The turns acknowledged in one turn of the event
   * loop go in one queue-ack.lua call, after it (turn-batch.ts).
   */
  async ack(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.#acked.add(ids)
  }

  /** Hands a turn this consumer owns back to the queue; false when it was no longer its own. */
  release(turn: QueuedTurn, attemptsUsed: number): Promise<boolean> {
    return whileReachable(() => this.#release(turn, attemptsUsed))
  }

  async #release(turn: QueuedTurn, attemptsUsed: number): Promise<boolean> {
    const { stream, group } = this.keys
    const reply = await this.#scripts['queue-release'](
      [stream],
      [
        group,
        this.consumer,
        turn.id,
        'task',
        turn.taskId,
        'origin',
        turn.origin,
        'attempts',
        String(attemptsUsed),
        ...(turn.requestId === undefined ? [] : ['request', turn.requestId]),
      ],
    )
    return typeof reply === 'string'
  }

  /**
   * Resets the idle time of these entries where this consumer still owns them; returns those.
   * A queue that Redis no longer has (it restarted without its data) holds none of them.
   */
  async heartbeat(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set()
    const { stream, group } = this.keys
    let kept: unknown
    try {
      kept = await whileReachable(() =>
        this.#scripts['queue-heartbeat']([stream], [group, this.consumer, ...ids]),
      )
    } catch (error) {
      if (!isNoGroup(error)) throw error
      return new Set()
    }
    return new Set(Array.isArray(kept) ? kept.map(String) : [])
  }

  /** Pending entries idle for at least `minIdleMs`, oldest first. */
  async idle(minIdleMs: number, count: number): Promise<IdleTurn[]> {
    const { stream, group } = this.keys
    const reply = (await whileReachable(() =>
      this.redis.xpending(stream, group, 'IDLE', minIdleMs, '-', '+', count),
    )) as [string, string, number, number][]
    return reply.map(([id, consumer, idleMs, deliveries]) => ({
      id,
      consumer,
      idleMs: Number(idleMs),
      deliveries: Number(deliveries),
    }))
  }

  /**
   * Takes over entries that are still idle for `minIdleMs` (XCLAIM checks it atomically, so of
   * two workers reclaiming one entry only one gets it); each claim counts as a delivery.
   */
  async claim(ids: readonly string[], minIdleMs: number): Promise<QueuedTurn[]> {
    if (ids.length === 0) return []
    const { stream, group } = this.keys
    const entries = (await whileReachable(() =>
      this.redis.xclaim(stream, group, this.consumer, minIdleMs, ...ids),
    )) as (StreamEntry | null)[]
    return entries.flatMap((entry) => (entry ? queuedTurn(entry) : []))
  }

  /** Consumers idle for at least `minIdleMs` (dead workers, usually), by name. */
  async idleConsumers(minIdleMs: number): Promise<string[]> {
    const { stream, group } = this.keys
    const reply = (await whileReachable(() =>
      this.redis.xinfo('CONSUMERS', stream, group),
    )) as unknown[][]
    return reply.flatMap((info) => {
      const field = (name: string) => info[info.indexOf(name) + 1]
      return Number(field('idle')) >= minIdleMs && field('name') !== this.consumer
        ? [String(field('name'))]
        : []
    })
  }

  /** Deletes a consumer that owns no entry; false when it still owns some. */
  async forgetConsumer(name: string): Promise<boolean> {
    const reply = await whileReachable(() =>
      this.#scripts['queue-forget-consumer']([this.keys.stream], [this.keys.group, name]),
    )
    return reply === 1
  }

  /** Tells every worker that this task was canceled. */
  async publishCancel(taskId: string): Promise<void> {
    await whileReachable(() => this.redis.publish(this.keys.cancel, taskId))
  }

  /** Tells the process that dispatched a turn that it has ended. */
  async publishEnded(origin: string, taskId: string): Promise<void> {
    await whileReachable(() => this.redis.publish(this.keys.ended(origin), taskId))
  }

  /**
   * Says this worker is alive and runs `skillIds` (every third of the visibility timeout, while
   * it reads the queue); a worker silent for `forgetAfterMs` is dropped.
   */
  async seen(forgetAfterMs: number, skillIds: readonly string[]): Promise<void> {
    const { workers, workerSkills } = this.keys
    await whileReachable(() =>
      this.#scripts['queue-worker-seen'](
        [workers, workerSkills],
        [this.consumer, String(forgetAfterMs), skillIds.join(' ')],
      ),
    )
  }

  /** Takes this worker out of the set, as it stops. */
  async gone(): Promise<void> {
    const { workers, workerSkills } = this.keys
    await whileReachable(() =>
      this.#scripts['queue-worker-gone']([workers, workerSkills], [this.consumer]),
    )
  }

  /**
   * The workers that said they were alive within the last `withinMs`, each with the skill ids
   * it runs (the same in every process).
   */
  async liveWorkers(withinMs: number): Promise<LiveWorker[]> {
    const { workers, workerSkills } = this.keys
    const reply = (await whileReachable(() =>
      this.#scripts['queue-workers']([workers, workerSkills], [String(withinMs)]),
    )) as (string | null)[]
    const live: LiveWorker[] = []
    for (let i = 0; i < reply.length; i += 2) {
      const skills = reply[i + 1]
      live.push({ name: String(reply[i]), skillIds: skills ? skills.split(' ') : [] })
    }
    return live
  }

  /** How many turns wait or run (for metrics and the benchmark). */
  depth(): Promise<number> {
    return whileReachable(() => this.redis.xlen(this.keys.stream))
  }
}

/** A new turn's fields: field, value, … */
function entry(taskId: string, origin: string, requestId: string | undefined): string[] {
  const fields = ['task', taskId, 'origin', origin, 'attempts', '0']
  if (requestId !== undefined) fields.push('request', requestId)
  return fields
}

/** A stream entry as a turn; an entry without a task id (a hand edit) is skipped. */
function queuedTurn([id, fields]: StreamEntry): QueuedTurn[] {
  const value = (name: string) => {
    const at = fields.indexOf(name)
    return at % 2 === 0 ? fields[at + 1] : undefined
  }
  const taskId = value('task')
  if (taskId === undefined) return []
  const requestId = value('request')
  return [
    {
      id,
      taskId,
      origin: value('origin') ?? '',
      priorAttempts: Number(value('attempts') ?? 0) || 0,
      ...(requestId !== undefined && { requestId }),
    },
  ]
}

/** Redis has no such stream or consumer group: the queue is gone (or not made yet). */
const isNoGroup = (error: unknown): boolean =>
  error instanceof Error && /(^|: )NOGROUP /.test(error.message)
