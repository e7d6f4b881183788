/**
 * A worker: takes turns from the Redis work queue (a consumer group, see work-queue.ts) and runs
 * them with the Runner, up to `concurrency` at once.
 *
 * - Turns come from its blocking read, or from its own process's dispatcher (`adopt`), which
 *   takes the oldest waiting turns in the same step that queues a new one (queue-add.lua); a
 *   read that returns more turns than slots are left hands the extra ones back.
 *
 * - While a turn runs, a heartbeat resets its entry's idle time every third of the visibility
 *   timeout, so a slow but live turn is never taken away.
 * - A turn whose entry stays idle longer than the visibility timeout lost its worker (killed,
 *   frozen, cut off from Redis): any worker's reclaim round claims it and runs it again (skills
 *   are re-entrant). After QUEUE_MAX_ATTEMPTS attempts the task fails with a message saying why.
 * - A turn is acknowledged (and its entry deleted) only once its outcome is stored. A turn that
 *   Redis being unreachable stopped is run again by its own worker once Redis is back: the entry
 *   is still its own, so no claim is made and the delivery counter, the attempts, stays as it
 *   was. Right after an outage no worker reclaims for one visibility timeout, so that living
 *   workers heartbeat their turns first. A turn stopped by any other store failure stays
 *   pending, and a reclaim runs it again as a new attempt.
 * - A turn whose skill this worker lacks (the processes were started with different skills) is
 *   handed back for another worker, using an attempt; the last attempt fails its task.
 * - On close, the worker stops taking turns, waits the grace period (its heartbeats go on, so
 *   no other worker takes a turn that is still draining), then hands the turns still running
 *   back to the queue for another worker, without failing their tasks.
 */
import type { Task } from '../../domain/model.js'
import type { Redis } from 'ioredis'
import type { Logger } from 'pino'
import { ServiceUnavailableError } from '../../domain/errors.js'
import { isTerminal } from '../../domain/state-machine.js'
import type { AbortReason } from '../../engine/dispatcher.js'
import type { Runner } from '../../engine/runner.js'
import { Turn } from '../../engine/turn.js'
import type { EventLog } from '../../store/event-log.js'
import type { TaskStore } from '../../store/task-store.js'
import { TransitionRejectedError } from '../../store/task-store.js'
import type { QueuedTurn, WorkQueue } from '../../store/redis/work-queue.js'
import { redisFailure, redisUnavailable } from '../../store/redis/connection.js'

export interface QueueWorkerOptions {
  queue: WorkQueue
  /** A connection for the worker's blocking reads only; the worker closes it. */
  connection: Redis
  /** The connection other commands go on (used here to unblock the reader on close). */
  redis: Redis
  /** Runs turns, and ends the ones that may not run again (abandon, settle). */
  runner: Pick<Runner, 'run' | 'abandon' | 'settle' | 'skillIds'>
  store: TaskStore
  events: EventLog
  log: Logger
  concurrency: number
  visibilityTimeoutMs: number
  maxAttempts: number
  /** Called once a turn that the process `origin` dispatched has ended. */
  onEnded: (origin: string, taskId: string, task?: Task) => void
}

interface RunningTurn {
  entry: QueuedTurn
  /** The turn's current run: a new one when the worker runs the turn again (see #run). */
  turn: Turn
  done: Promise<void>
}

/** Why a reclaimed turn's last attempt ended, as the log and its task's status say it. */
const LOST_TURN = {
  worker: {
    log: 'reclaimed a turn whose worker stopped responding',
    status: 'its worker stopped responding',
  },
  store: {
    log: 'reclaimed a turn this worker stopped after a task store failure',
    status: 'the task store failed during its turn',
  },
}

/** A heartbeat found a running turn's entry no longer this worker's: the turn stops here. */
const TURN_LOST =
  "this turn is no longer in the queue as this worker's: another worker took it over, or Redis lost the queue (a restart without its data); it stops here"

/** How long one blocking read waits before it looks at the worker's state again. */
const BLOCK_MS = 5000

/** How long a worker holds a turn whose skill it lacks before it hands it back (see #handOn). */
const HAND_ON_PAUSE_MS = 1000

/** How long a cancel of a task with no turn here is remembered (see abort). */
const CANCEL_MEMORY_MS = 10_000
/** A worker silent for this many visibility timeouts is dropped from the workers' set. */
const FORGET_WORKER_AFTER = 10

export class QueueWorker {
  readonly #options: QueueWorkerOptions
  readonly #running = new Map<string, RunningTurn>()
  /** Slots held for turns being queued and taken by this process's dispatcher. */
  #reserved = 0
  /** The skills queued turns asked for that this worker lacks (each is logged once). */
  readonly #missingSkills = new Set<string>()
  /** Tasks canceled while no turn of theirs ran here, with when (see abort). */
  readonly #canceled = new Map<string, number>()
  /** The upkeep timers (reclaiming, forgetting dead consumers): stopped when closing starts. */
  readonly #timers: NodeJS.Timeout[] = []
  /** Runs until the last turn has ended or been handed back: a draining turn is still ours. */
  #heartbeatTimer: NodeJS.Timeout | undefined
  #closing = false
  #reading: Promise<void> = Promise.resolve()
  #slotFreed: (() => void) | undefined
  #readerId: number | undefined
  /** When the commands connection last came back after losing Redis (0: never lost it). */
  #reconnectedAt = 0

  constructor(options: QueueWorkerOptions) {
    this.#options = options
    let lost = false
    options.redis.on('close', () => (lost = true))
    options.redis.on('ready', () => {
      if (lost) this.#reconnectedAt = Date.now()
      lost = false
    })
    // CLIENT UNBLOCK needs the reader's id; it changes with every reconnection.
    options.connection.on('ready', () => {
      options.connection.client('ID').then(
        (id) => (this.#readerId = Number(id)),
        () => (this.#readerId = undefined),
      )
    })
  }

  get runningCount(): number {
    return this.#running.size
  }

  /**
   * Holds a slot for the turn its process is about to queue and take in one step (see adopt);
   * false when no slot is free (or it is closing): the turn then waits in the queue.
   */
  reserve(): boolean {
    const { concurrency } = this.#options
    if (this.#closing || this.#running.size + this.#reserved >= concurrency) return false
    this.#reserved += 1
    return true
  }

  /**
   * Ends a reservation: runs the turns taken with it (queue-add.lua; none when the queueing
   * failed). `known` is the task of the turn just queued, as its dispatcher has written it.
   */
  adopt(entries: readonly QueuedTurn[], known?: Task): void {
    this.#reserved -= 1
    for (const entry of entries) {
      if (this.#closing) {
        void this.#release(entry)
        continue
      }
      // A task canceled meanwhile is read afresh: the turn then sees the cancel and ends.
      const trusted = entry.taskId === known?.id && !this.#canceled.has(entry.taskId)
      this.#start(entry, trusted ? known : undefined)
    }
    if (entries.length === 0) this.#slotFreed?.()
  }

  start(): void {
    const { visibilityTimeoutMs } = this.#options
    this.#reading = this.#readLoop()
    this.#heartbeatTimer = this.#every(
      Math.max(100, Math.floor(visibilityTimeoutMs / 3)),
      () => this.#heartbeat(),
      { whileClosing: true },
    )
    this.#timers.push(
      this.#every(Math.max(100, Math.floor(visibilityTimeoutMs / 2)), () => this.#reclaim()),
      // Tells the API processes that a worker reads the queue (a2a_queue_workers, and their
      // warning when turns wait with none): at once, then every third of the timeout.
      // Quiet: an outage is said once, by the heartbeat and reclaim rounds.
      this.#every(Math.max(100, Math.floor(visibilityTimeoutMs / 3)), () => this.#sayAlive(), {
        quiet: true,
      }),
    )
    // At once; an outage is logged by the heartbeat and reclaim rounds.
    void this.#sayAlive().catch(() => undefined)
  }

  #sayAlive(): Promise<void> {
    const { queue, visibilityTimeoutMs, runner } = this.#options
    return queue.seen(visibilityTimeoutMs * FORGET_WORKER_AFTER, runner.skillIds)
  }

  /**
   * Aborts the turn this worker runs for the task; false when it runs none. A cancel of a task
   * it runs no turn for is remembered for a while: its dispatcher's copy of the task, handed to
   * `adopt` a moment later, would not show it.
   */
  abort(taskId: string, reason: AbortReason): boolean {
    const running = this.#running.get(taskId)
    running?.turn.abort(reason)
    if (!running && reason === 'canceled') this.#rememberCancel(taskId)
    return running !== undefined
  }

  #rememberCancel(taskId: string): void {
    const time = Date.now()
    // Oldest first (insertion order): drop the ones past the window.
    for (const [id, at] of this.#canceled) {
      if (time - at < CANCEL_MEMORY_MS) break
      this.#canceled.delete(id)
    }
    this.#canceled.delete(taskId)
    this.#canceled.set(taskId, time)
  }

  /** Aborts running turns whose task was canceled while this process could not hear it. */
  async recheck(): Promise<void> {
    for (const [taskId, running] of this.#running) {
      const task = await this.#options.store.get(taskId).catch(() => undefined)
      if (task?.status.state === 'canceled') running.turn.abort('canceled')
    }
  }

  async close(graceMs: number): Promise<void> {
    this.#closing = true
    for (const timer of this.#timers.splice(0)) clearInterval(timer)
    // It reads no more turns: what it hands back waits for another worker.
    await this.#options.queue.gone().catch(() => undefined)
    this.#slotFreed?.()
    await this.#unblockReader()
    await this.#reading
    const drained = await settledWithin(this.#allDone(), graceMs)
    if (!drained) {
      const left = [...this.#running.values()]
      for (const { turn } of left) turn.abort('released')
      await this.#allDone()
      const released = await Promise.all(left.map(({ entry }) => this.#release(entry)))
      const turns = released.filter(Boolean).length
      // The turns that could not be handed back are logged one by one (#release).
      if (turns > 0) {
        this.#options.log.info(
          { turns, graceMs },
          `handed ${turns} running turn${turns === 1 ? '' : 's'} back to the queue: the next worker to read it runs ${turns === 1 ? 'it' : 'them'} from the start`,
        )
      }
    }
    clearInterval(this.#heartbeatTimer)
    this.#options.connection.disconnect()
  }

  #allDone(): Promise<unknown> {
    return Promise.all([...this.#running.values()].map((running) => running.done))
  }

  async #readLoop(): Promise<void> {
    const { queue, connection, concurrency, log } = this.#options
    let failures = 0
    while (!this.#closing) {
      const free = concurrency - this.#running.size - this.#reserved
      if (free <= 0) {
        await new Promise<void>((resolve) => (this.#slotFreed = resolve))
        this.#slotFreed = undefined
        continue
      }
      let entries: QueuedTurn[]
      try {
        entries = await queue.take(connection, free, BLOCK_MS)
        failures = 0
      } catch (error) {
        if (this.#closing) break
        // A connection closed for good (a database Redis lacks) was said as such when it closed.
        if (failures++ === 0 && connection.status !== 'end') {
          log.warn({ err: redisFailure(error) }, 'cannot read the work queue; retrying')
        }
        await pause(Math.min(100 * 2 ** failures, 1000))
        continue
      }
      for (const entry of entries) {
        // Turns taken while this read waited (adopt) may have filled the slots it asked for.
        const full = this.#running.size + this.#reserved >= concurrency
        if (this.#closing || full) await this.#release(entry)
        else this.#start(entry)
      }
    }
  }

  #start(entry: QueuedTurn, known?: Task): void {
    const running: RunningTurn = { entry, turn: new Turn(), done: Promise.resolve() }
    this.#running.set(entry.taskId, running)
    running.done = this.#run(running, known).finally(() => {
      if (this.#running.get(entry.taskId) === running) this.#running.delete(entry.taskId)
      this.#slotFreed?.()
    })
  }

  async #run(running: RunningTurn, known: Task | undefined): Promise<void> {
    const { entry } = running
    const origin = entry.requestId === undefined ? undefined : { requestId: entry.requestId }
    for (;;) {
      const result = await this.#options.runner.run(entry.taskId, running.turn, origin, known)
      // Released: another worker has the turn now (or gets it from close()).
      if (running.turn.reason === 'released') return
      if (result.recorded) return this.#done(entry, result.task)
      if (result.missingSkill !== undefined) return this.#handOn(entry, result.missingSkill)
      // Another store failure: the entry stays pending, and a reclaim runs it as a new attempt.
      if (!result.storeUnavailable) return
      // Redis went away under a live turn: no worker failed, so no attempt is used. The entry
      // is still this worker's, and it runs the turn again here once Redis is back.
      if (!(await this.#storeBack(running))) return
      running.turn = new Turn()
      known = undefined
    }
  }

  /**
   * Waits for Redis to come back after it stopped a turn: true once the turn's entry is still
   * this worker's (a heartbeat says so), false when the turn is no longer its to run (taken
   * over, handed back on close, or a store fault that a reclaim will deal with).
   */
  async #storeBack(running: RunningTurn): Promise<boolean> {
    const { queue, log } = this.#options
    const { entry } = running
    log.warn(
      { taskId: entry.taskId },
      'turn stopped while Redis was unavailable; it runs again here once Redis is back, using no attempt',
    )
    for (let failures = 0; ; failures++) {
      if (running.turn.reason === 'released') return false
      if (this.#closing) {
        await this.#release(entry)
        return false
      }
      try {
        if ((await queue.heartbeat([entry.id])).has(entry.id)) return true
        log.warn({ taskId: entry.taskId }, TURN_LOST)
        return false
      } catch (error) {
        if (!redisUnavailable(error)) {
          log.error({ err: error, taskId: entry.taskId }, 'cannot run a turn again')
          return false
        }
        await pause(Math.min(100 * 2 ** failures, 1000))
      }
    }
  }

  /**
   * Leaves a turn whose skill this worker lacks (its settings differ from the process that took
   * the task) to another worker: hands it back after a pause, so that another worker may read
   * it first, using one attempt; when that was the last, fails its task saying why.
   */
  async #handOn(entry: QueuedTurn, skillId: string): Promise<void> {
    const { log, maxAttempts } = this.#options
    if (!this.#missingSkills.has(skillId)) {
      this.#missingSkills.add(skillId)
      log.error(
        { skillId, taskId: entry.taskId },
        `this worker has no skill "${skillId}", which a queued task asks for: it leaves such turns to other workers (give every process the same BUNDLED_SKILLS and SKILL_MODULES)`,
      )
    }
    const attempts = entry.priorAttempts + 1
    if (attempts >= maxAttempts) {
      return this.#fail(entry, attempts, `no worker that took it offers its skill "${skillId}"`)
    }
    await pause(HAND_ON_PAUSE_MS)
    await this.#release({ ...entry, priorAttempts: attempts })
  }

  /** Tells a turn's dispatcher that it has ended, and acknowledges it. */
  async #done(entry: QueuedTurn, task?: Task): Promise<void> {
    const { queue, log, onEnded } = this.#options
    // The outcome is stored: a blocking send may answer while the acknowledgement travels.
    onEnded(entry.origin, entry.taskId, task)
    try {
      await queue.ack([entry.id])
    } catch (error) {
      // The entry stays pending; a reclaim finds the turn ended and acknowledges it then.
      log.warn({ err: error, taskId: entry.taskId }, 'cannot acknowledge a finished turn')
    }
  }

  /** Hands a turn back to the queue; true when it was still this worker's to hand back. */
  async #release(entry: QueuedTurn): Promise<boolean> {
    try {
      return await this.#options.queue.release(entry, entry.priorAttempts)
    } catch (error) {
      // Still pending under this consumer: reclaimed once the visibility timeout has passed.
      this.#options.log.warn({ err: error, taskId: entry.taskId }, 'cannot hand a turn back')
      return false
    }
  }

  async #heartbeat(): Promise<void> {
    const live = [...this.#running.values()].filter(({ turn }) => !turn.aborted)
    if (live.length === 0) return
    const kept = await this.#options.queue.heartbeat(live.map(({ entry }) => entry.id))
    for (const { entry, turn } of live) {
      if (kept.has(entry.id) || this.#running.get(entry.taskId)?.turn !== turn) continue
      this.#options.log.warn({ taskId: entry.taskId }, TURN_LOST)
      turn.abort('released')
    }
  }

  /** Claims turns whose worker went quiet, and runs them again or fails their task. */
  async #reclaim(): Promise<void> {
    const { queue, runner, visibilityTimeoutMs, maxAttempts, concurrency, log } = this.#options
    if (this.#reclaimPaused()) return
    const runningIds = new Set([...this.#running.values()].map(({ entry }) => entry.id))
    const idle = await queue.idle(visibilityTimeoutMs, 100)
    for (const candidate of idle) {
      // Checked again: a command issued during an outage is sent once Redis is back.
      if (this.#closing || this.#reclaimPaused()) return
      if (runningIds.has(candidate.id)) continue
      const exhausted = candidate.deliveries >= maxAttempts
      if (!exhausted && this.#running.size >= concurrency) continue
      const [entry] = await queue.claim([candidate.id], visibilityTimeoutMs)
      if (!entry) continue
      const attemptsUsed = entry.priorAttempts + candidate.deliveries
      // A worker never reclaims a turn it runs, and runs again itself one that an outage
      // stopped: its own entry is a turn it left pending after another store failure.
      const lost = LOST_TURN[candidate.consumer === queue.consumer ? 'store' : 'worker']
      if (this.#closing) {
        await this.#release({ ...entry, priorAttempts: attemptsUsed })
        continue
      }
      const ended = await this.#endedTurn(entry)
      if (ended) {
        // Its worker may have died between storing the outcome and freeing the caller's slot.
        runner.settle(entry.taskId, ended.task)
        await this.#done(entry)
      } else if (attemptsUsed >= maxAttempts) {
        log.warn({ taskId: entry.taskId, attempts: attemptsUsed }, 'turn failed on every attempt')
        await this.#fail(entry, attemptsUsed, lost.status)
      } else {
        log.warn(
          { taskId: entry.taskId, from: candidate.consumer, attempt: attemptsUsed + 1 },
          lost.log,
        )
        this.#start({ ...entry, priorAttempts: attemptsUsed })
      }
    }
    await this.#forgetDeadConsumers()
  }

  /**
   * True while Redis is unreachable, and for one visibility timeout after it is back: every
   * running turn's entry looks idle then (its heartbeats failed), so the living workers get that
   * long to heartbeat theirs before anyone reclaims.
   */
  #reclaimPaused(): boolean {
    const { redis, visibilityTimeoutMs } = this.#options
    return redis.status !== 'ready' || Date.now() - this.#reconnectedAt < visibilityTimeoutMs
  }

  /**
   * The task as it is now, when the entry's turn has already ended (task undefined: it is gone):
   * its outcome was stored, but its worker died before acknowledging it. Undefined while the
   * turn has not ended. The queue and the task's log are streams of one Redis, so the log's
   * events after the entry's id are the ones written since the turn was queued.
   */
  async #endedTurn(entry: QueuedTurn): Promise<{ task: Task | undefined } | undefined> {
    const task = await this.#options.store.get(entry.taskId)
    if (!task || isTerminal(task.status.state)) return { task }
    const since = await this.#options.events.read(entry.taskId, entry.id)
    const ended = since.some(({ event }) => event.kind === 'status-update' && event.final)
    return ended ? { task } : undefined
  }

  /**
   * Fails the task of a turn that used up its attempts, saying why the last one ended (the
   * runner frees its caller's slot).
   */
  async #fail(entry: QueuedTurn, attempts: number, why: string): Promise<void> {
    const text = `The task failed after ${attempts} attempts: ${why}`
    try {
      await this.#options.runner.abandon(entry.taskId, text)
    } catch (error) {
      // Redis down: try again next round. Otherwise (refused, gone, unreadable) it is settled.
      if (error instanceof ServiceUnavailableError || redisUnavailable(error)) return
      if (!(error instanceof TransitionRejectedError)) {
        this.#options.log.error({ err: error, taskId: entry.taskId }, 'cannot fail a task')
      }
    }
    await this.#done(entry)
  }

  /** Deletes consumers of dead workers (each process joins under a new name). */
  async #forgetDeadConsumers(): Promise<void> {
    const { queue, visibilityTimeoutMs } = this.#options
    const quietFor = Math.max(10 * visibilityTimeoutMs, 60_000)
    for (const name of await queue.idleConsumers(quietFor)) await queue.forgetConsumer(name)
  }

  /**
   * Runs `task` every `ms` (never two at once), until closing starts unless `whileClosing`; a
   * failure is logged once per outage: the first of a run of failures of this task (another
   * task succeeding meanwhile, a reclaim round that the outage pauses, says nothing of it).
   */
  #every(
    ms: number,
    task: () => Promise<void>,
    { whileClosing = false, quiet = false } = {},
  ): NodeJS.Timeout {
    let busy = false
    let failing = false
    const timer = setInterval(() => {
      if (busy || (this.#closing && !whileClosing)) return
      busy = true
      task()
        .then(
          () => (failing = false),
          (error: unknown) => {
            if (!failing && !quiet) {
              this.#options.log.warn({ err: redisFailure(error) }, 'work queue upkeep failed')
            }
            failing = true
          },
        )
        .finally(() => (busy = false))
    }, ms)
    timer.unref()
    return timer
  }

  /**
   * Ends the blocking read at once. CLIENT UNBLOCK ends it as a timeout (nothing delivered);
   * disconnecting, the fallback, could lose a reply whose entries then wait to be reclaimed.
   */
  async #unblockReader(): Promise<void> {
    const { redis, connection } = this.#options
    const id = this.#readerId
    const unblocked = id !== undefined && (await redis.client('UNBLOCK', id).catch(() => 0)) === 1
    if (!unblocked && !(await settledWithin(this.#reading, 200))) connection.disconnect()
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref())

/** True when `promise` settles within `ms`. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const timeUp = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)))
  try {
    return await Promise.race([promise.then(() => true), timeUp])
  } finally {
    clearTimeout(timer)
  }
}
