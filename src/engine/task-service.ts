/**
 * The engine's one door: every dialect creates, continues, cancels, reads and follows tasks
 * through here, and every change goes through the TaskStore's atomic `apply`.
 */
import type { Logger } from 'pino'
import type { StoredEvent } from '../domain/events.js'
import {
  A2AError,
  InvalidRequestError,
  InvalidTaskStateError,
  PermissionDeniedError,
  TaskIdConflictError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '../domain/errors.js'
import { missingScopes, requiredScopes } from '../domain/caller.js'
import { newId } from '../domain/ids.js'
import type { Message, Metadata, Task, TaskState } from '../domain/model.js'
import { now } from '../domain/model.js'
import { agentMessage, textPart } from '../domain/parts.js'
import { INTERRUPTED_STATES, isFinal, isTerminal } from '../domain/state-machine.js'
import type { SkillRegistry } from '../skills/registry.js'
import type { EventLog } from '../store/event-log.js'
import type { TaskPage, TaskQuery, TaskStore, WriteOrigin } from '../store/task-store.js'
import { TransitionRejectedError } from '../store/task-store.js'
import type { ActiveTaskCap } from './active-task-cap.js'
import type { Dispatcher } from './dispatcher.js'
import { fingerprint } from './fingerprint.js'
import type { MessageLimits } from './limits.js'
import { checkMessageLimits } from './limits.js'
import { checkMediaTypes, messageTaskId, sameContent } from './message-rules.js'

export interface TaskServiceOptions {
  store: TaskStore
  events: EventLog
  skills: SkillRegistry
  dispatcher: Dispatcher
  /** The per-caller cap on open tasks; none when absent. */
  activeTaskCap?: ActiveTaskCap
  limits: MessageLimits
  /** sendMessage de-duplicates by (owner, messageId); false makes every message new (default true). */
  dedupeMessages?: boolean
  /** Where a skill's failed `canceledWhileWaiting` is logged. */
  log: Logger
}

export interface SendInput {
  /** A client-chosen id (the brief's dialect); generated when absent. */
  taskId?: string
  contextId?: string
  message: Message
  /** Request-level metadata; `skillId` here or on the message picks the skill. */
  metadata?: Metadata
  /** The caller creating the task; only it sees the task where callers are told apart. */
  owner?: string
  tenant?: string
  /** The caller's scopes; when given, the skill's required scopes are checked against them. */
  scopes?: readonly string[]
  /** The request this send comes from (the audit trail names it). */
  requestId?: string
}

/** A message as A2A 0.2+ sends it: the server names new tasks; `taskId` continues one. */
export interface MessageInput {
  message: Message
  taskId?: string
  contextId?: string
  metadata?: Metadata
  owner?: string
  tenant?: string
  scopes?: readonly string[]
  requestId?: string
}

/** The states a message may continue. */
const CONTINUABLE: readonly TaskState[] = ['input-required']

export class TaskService {
  /** Turns running in this process, by task: a blocking send waits on these directly. */
  readonly #localTurns = new Map<string, Promise<Task | undefined>>()

  constructor(private readonly options: TaskServiceOptions) {}

  /** Creates a task and starts its first turn; a retry of the same request returns the task. */
  async send(input: SendInput): Promise<{ task: Task; created: boolean }> {
    const { store, skills, limits } = this.options
    checkMessageLimits(input.message, limits)
    const skill = skills.resolve(skillIdOf(input))
    this.checkSkillScopes(skill.id, input.scopes)
    // A skill that names no inputModes accepts any media type.
    if (skill.inputModes) checkMediaTypes(input.message.parts, skill.inputModes)
    skills.checkInput(skill.id, input.message)
    const taskId = input.taskId ?? newId()
    // Keys in sorted order: the fingerprint's canonical JSON then need not sort them.
    const requestHash = fingerprint({
      contextId: input.contextId,
      metadata: input.message.metadata,
      parts: input.message.parts,
      role: input.message.role,
      skillId: skill.id,
    })
    const status = { state: 'submitted' as const, timestamp: now() }
    const task: Task = {
      id: taskId,
      contextId: input.contextId ?? newId(),
      skillId: skill.id,
      status,
      history: [input.message],
      artifacts: [],
      transitions: [status],
      ...(input.metadata && { metadata: input.metadata }),
      ...(input.owner !== undefined && { owner: input.owner }),
      ...(input.tenant !== undefined && { tenant: input.tenant }),
      requestHash,
      createdAt: status.timestamp,
      updatedAt: status.timestamp,
    }
    const first = {
      kind: 'status-update',
      taskId,
      contextId: task.contextId,
      status,
      final: false,
    } as const
    const origin = originFrom(input)
    const cap = this.options.activeTaskCap
    await cap?.admit(input.owner, taskId, skill)
    let result: { task: Task; created: boolean }
    try {
      result = await store.create(task, first, origin)
    } catch (error) {
      await cap?.release(input.owner, taskId)
      throw error
    }
    if (!result.created) {
      // Another caller's id is a conflict, never a way to read its task.
      const sameOwner = result.task.owner === input.owner
      // A retry: the task keeps its caller's slot only while it is open.
      if (sameOwner) await cap?.settle(input.owner, taskId, result.task.status.state)
      else await cap?.release(input.owner, taskId)
      if (!sameOwner || result.task.requestHash !== requestHash) {
        throw new TaskIdConflictError(taskId)
      }
      await this.resume(result.task, origin)
      return result
    }
    await this.#dispatch(result.task, origin)
    return result
  }

  /**
   * A2A 0.2+ send. Without `taskId` it creates a task whose id is derived from (owner,
   * messageId), so a retried message finds its task instead of starting another; with `taskId`
   * it continues that task, which must be waiting for input and in the same context.
   */
  async sendMessage(input: MessageInput): Promise<{ task: Task; created: boolean }> {
    if (input.taskId !== undefined) {
      return { task: await this.#continueMessage(input, input.taskId), created: false }
    }
    try {
      const taskId =
        this.options.dedupeMessages === false
          ? newId()
          : messageTaskId(input.owner, input.message.messageId)
      return await this.send({ ...input, taskId })
    } catch (error) {
      if (error instanceof TaskIdConflictError) {
        throw new InvalidRequestError(
          'was already used for a different message',
          'message.messageId',
        )
      }
      throw error
    }
  }

  async #continueMessage(input: MessageInput, taskId: string): Promise<Task> {
    const task = await this.getFor(taskId, input.owner)
    if (input.contextId !== undefined && input.contextId !== task.contextId) {
      throw new InvalidRequestError(
        `does not match the context of task ${taskId}`,
        'message.contextId',
      )
    }
    const { messageId } = input.message
    // A retry of a message the task already holds changes nothing; another message under its
    // id is refused, as it is for a new task.
    const held = task.history.find((m) => m.role === 'user' && m.messageId === messageId)
    if (held && this.options.dedupeMessages !== false) {
      if (!sameContent(held, input.message)) {
        throw new InvalidRequestError(
          'was already used for a different message',
          'message.messageId',
        )
      }
      await this.resume(task, originFrom(input))
      return task
    }
    const { state } = task.status
    if (isTerminal(state)) {
      throw new UnsupportedOperationError(
        `Task ${taskId} is ${state} and takes no more messages; start a new task in its context (${task.contextId}), naming it in referenceTaskIds`,
        { taskId, state },
      )
    }
    this.checkSkillScopes(task.skillId, input.scopes, taskId)
    return this.continue(taskId, input.message, originFrom(input), task)
  }

  /**
   * Refuses a caller whose scopes lack what the skill requires (PermissionDeniedError). No
   * scopes given means no check: the caller is the server itself or authentication is off.
   */
  checkSkillScopes(skillId: string, scopes: readonly string[] | undefined, taskId?: string): void {
    if (scopes === undefined) return
    const skill = this.options.skills.get(skillId)
    if (!skill) return
    const missing = missingScopes(scopes, requiredScopes(skill))
    if (missing.length > 0) {
      throw new PermissionDeniedError(missing, `use skill "${skillId}"`, {
        skillId,
        ...(taskId !== undefined && { taskId }),
      })
    }
  }

  /**
   * Answers an input-required task: appends the message and starts the next turn. `known`: the
   * task as the caller has just read it (its skill and owner never change), saving a read.
   */
  async continue(
    taskId: string,
    message: Message,
    origin?: WriteOrigin,
    known?: Task,
  ): Promise<Task> {
    const { store, skills, activeTaskCap: cap } = this.options
    checkMessageLimits(message, this.options.limits)
    const current = known ?? (await this.get(taskId))
    const owner = current.owner
    const skill = skills.get(current.skillId)
    if (skill?.inputModes) checkMediaTypes(message.parts, skill.inputModes)
    skills.checkInput(current.skillId, message, current.history)
    if (cap && skill) await cap.admit(owner, taskId, skill)
    let task: Task
    try {
      task = (
        await store.apply(
          taskId,
          {
            kind: 'status',
            status: { state: 'working', timestamp: now() },
            appendToHistory: [message],
            from: CONTINUABLE,
          },
          origin,
        )
      ).task
    } catch (error) {
      // The slot goes as the task is: running after all (another message won the race), still
      // waiting (the store failed), or ended.
      const state = error instanceof TransitionRejectedError ? error.state : current.status.state
      await cap?.settle(owner, taskId, state)
      if (error instanceof TransitionRejectedError) {
        throw new InvalidTaskStateError(taskId, error.state, CONTINUABLE)
      }
      throw error
    }
    await this.#dispatch(task, origin)
    return task
  }

  /** Tasks that have waited on their caller since `startedBefore` (ms) or earlier. */
  overdueWaits(startedBefore: number, limit: number): Promise<string[]> {
    return this.options.store.overdueWaits(startedBefore, limit)
  }

  /**
   * Fails a task that still waits on its caller, after `timeoutMs` without an answer; false
   * when it has moved on (or is gone) since.
   */
  async endWait(taskId: string, timeoutMs: number): Promise<boolean> {
    const message = agentMessage(newId(), [
      textPart(`No answer came within ${Math.round(timeoutMs / 1000)} s; the task is closed`),
    ])
    try {
      const { task } = await this.options.store.apply(taskId, {
        kind: 'status',
        status: { state: 'failed', timestamp: now(), message },
        appendToHistory: [message],
        from: INTERRUPTED_STATES,
      })
      await this.options.activeTaskCap?.release(task.owner, taskId)
      return true
    } catch (error) {
      if (error instanceof TransitionRejectedError || error instanceof TaskNotFoundError) {
        return false
      }
      throw error
    }
  }

  /** Cancels a task that has not ended, and aborts its running turn. */
  async cancel(taskId: string, origin?: WriteOrigin): Promise<Task> {
    try {
      const { task } = await this.options.store.apply(
        taskId,
        { kind: 'status', status: { state: 'canceled', timestamp: now() } },
        origin,
      )
      await this.options.dispatcher.abort(taskId, 'canceled')
      await this.options.activeTaskCap?.release(task.owner, taskId)
      if (INTERRUPTED_STATES.includes(task.transitions.at(-2)!.state))
        this.#canceledWhileWaiting(task)
      return task
    } catch (error) {
      if (error instanceof TransitionRejectedError) {
        throw new TaskNotCancelableError(taskId, error.state)
      }
      throw error
    }
  }

  /**
   * For a retried request whose message the task already took (the dialect tells a retry). A
   * task still running (submitted or working) gets its turn started again if the first
   * attempt's turn never reached the dispatcher: the task was written, then the store became
   * unreachable before the turn was queued (the client got a 503). A turn that is waiting or
   * running, or may still be being queued, is left alone (see Dispatcher.resume).
   */
  async resume(task: Task, origin?: WriteOrigin): Promise<void> {
    const { state } = task.status
    if (state !== 'submitted' && state !== 'working') return
    const turn = await this.options.dispatcher.resume(task, origin)
    if (turn?.ended) this.#track(task.id, turn.ended)
  }

  /** A turn that cannot start (e.g. during shutdown) fails its task rather than leave it hanging. */
  async #dispatch(task: Task, origin: WriteOrigin | undefined): Promise<void> {
    const { id: taskId, owner } = task
    try {
      const { ended } = await this.options.dispatcher.dispatch(task, origin)
      if (ended) this.#track(taskId, ended)
    } catch (error) {
      const reason = error instanceof A2AError ? error.message : 'The task could not be started'
      await this.options.store
        .apply(
          taskId,
          {
            kind: 'status',
            status: {
              state: 'failed',
              timestamp: now(),
              message: agentMessage(newId(), [textPart(reason)]),
            },
          },
          origin,
        )
        .catch(() => undefined)
      await this.options.activeTaskCap?.release(owner, taskId)
      throw error
    }
  }

  /** Tells the task's skill, which ran no turn to see the cancel (Skill.canceledWhileWaiting). */
  #canceledWhileWaiting(task: Task): void {
    const skill = this.options.skills.get(task.skillId)
    if (!skill?.canceledWhileWaiting) return
    const log = this.options.log.child({ taskId: task.id, skillId: task.skillId })
    const view = { taskId: task.id, contextId: task.contextId, history: task.history, log }
    skill.canceledWhileWaiting(view).catch((error: unknown) => {
      log.warn({ err: error }, 'the skill failed to act on the cancel of its waiting task')
    })
  }

  /** A turn this process dispatched: a blocking send waits on it until it ends. */
  #track(taskId: string, ended: Promise<Task | undefined>): void {
    this.#localTurns.set(taskId, ended)
    void ended.finally(() => {
      if (this.#localTurns.get(taskId) === ended) this.#localTurns.delete(taskId)
    })
  }

  async get(taskId: string): Promise<Task> {
    const task = await this.options.store.get(taskId)
    if (!task) throw new TaskNotFoundError(taskId)
    return task
  }

  /** The task, if `owner` may see it: another caller's task is "not found". */
  async getFor(taskId: string, owner: string | undefined): Promise<Task> {
    const task = await this.get(taskId)
    if (owner !== undefined && task.owner !== owner) throw new TaskNotFoundError(taskId)
    return task
  }

  /**
   * The task and the id of the last event it reflects, so that following the log from `cursor`
   * yields exactly the changes after the snapshot. A task and its event are written in one
   * atomic step, so a log that ends at the same event before and after the read proves the task
   * is that event's state; a busy task is read again (and, past a few tries, may repeat an event).
   */
  async snapshot(
    taskId: string,
    owner: string | undefined,
  ): Promise<{ task: Task; cursor: string | undefined }> {
    const { events } = this.options
    let cursor = await events.lastId(taskId)
    for (let attempt = 0; ; attempt++) {
      const task = await this.getFor(taskId, owner)
      const after = await events.lastId(taskId)
      if (after === cursor || attempt === 4) return { task, cursor }
      cursor = after
    }
  }

  /** Tasks matching `query`, newest update first; set `owner` to scope them to a caller. */
  list(query: TaskQuery): Promise<TaskPage> {
    return this.options.store.list(query)
  }

  /** The task's events after `after`. */
  async events(taskId: string, after?: string): Promise<StoredEvent[]> {
    return this.options.events.read(taskId, after)
  }

  /** The task's events after `after`, then live ones, until `signal` aborts. */
  follow(
    taskId: string,
    after: string | undefined,
    signal: AbortSignal,
  ): AsyncIterable<StoredEvent> {
    return this.options.events.follow(taskId, after, signal)
  }

  /**
   * Resolves with the task once it is terminal or interrupted, or as it is after `timeoutMs`.
   * The log cursor is read before the task, so a change in between is never missed.
   */
  async waitForFinal(taskId: string, timeoutMs: number, signal?: AbortSignal): Promise<Task> {
    if (timeoutMs === 0) return this.get(taskId)
    const localTurn = this.#localTurns.get(taskId)
    if (localTurn && !signal) return this.#waitForTurn(taskId, localTurn, timeoutMs)
    const cursor = await this.options.events.lastId(taskId)
    const current = await this.get(taskId)
    if (isFinal(current.status.state)) return current
    // A plain timer (not AbortSignal.timeout) so it is cleared as soon as the wait ends.
    const stop = new AbortController()
    const timer = setTimeout(() => stop.abort(), timeoutMs)
    const onAbort = () => stop.abort()
    signal?.addEventListener('abort', onAbort, { once: true })
    try {
      for await (const { event } of this.follow(taskId, cursor, stop.signal)) {
        if (event.kind === 'status-update' && event.final) break
      }
    } finally {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
    }
    return this.get(taskId)
  }

  /**
   * The cheap path for a turn whose end this process learns of: no log to follow, one timer, and
   * no read when the turn hands back its final task.
   */
  async #waitForTurn(
    taskId: string,
    turn: Promise<Task | undefined>,
    timeoutMs: number,
  ): Promise<Task> {
    let timer: NodeJS.Timeout | undefined
    try {
      // One promise settled by whichever comes first (no race of two): this runs on every send.
      const ended = await new Promise<Task | undefined>((resolve, reject) => {
        timer = setTimeout(() => resolve(undefined), timeoutMs)
        turn.then(resolve, reject)
      })
      if (ended && isFinal(ended.status.state)) return ended
    } finally {
      clearTimeout(timer)
    }
    return this.get(taskId)
  }
}

/** The request a send or message comes from, for the writes it makes. */
const originFrom = ({ requestId }: { requestId?: string }): WriteOrigin | undefined =>
  requestId === undefined ? undefined : { requestId }

/** `metadata.skillId` on the message wins over the request's; absent means the default skill. */
function skillIdOf({ message, metadata }: SendInput): string | undefined {
  const fromMessage = message.metadata?.skillId
  const fromRequest = metadata?.skillId
  const skillId = fromMessage ?? fromRequest
  if (skillId === undefined) return undefined
  if (typeof skillId !== 'string' || skillId === '') {
    throw new InvalidRequestError(
      'must be a non-empty string',
      fromMessage === undefined ? 'metadata.skillId' : 'message.metadata.skillId',
    )
  }
  return skillId
}
