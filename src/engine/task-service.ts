/**
 * The engine's one door: every dialect creates, continues, cancels, reads and follows tasks
 * through here, and every change goes through the TaskStore's atomic `apply`.
 */
import { randomUUID } from 'node:crypto'
import type { StoredEvent } from '../domain/events.js'
import {
  A2AError,
  InvalidRequestError,
  InvalidTaskStateError,
  TaskIdConflictError,
  TaskNotCancelableError,
  TaskNotFoundError,
} from '../domain/errors.js'
import type { Message, Metadata, Task, TaskState } from '../domain/model.js'
import { now } from '../domain/model.js'
import { agentMessage, textPart } from '../domain/parts.js'
import { isFinal } from '../domain/state-machine.js'
import type { SkillRegistry } from '../skills/registry.js'
import type { EventLog } from '../store/event-log.js'
import type { TaskStore } from '../store/task-store.js'
import { TransitionRejectedError } from '../store/task-store.js'
import type { Dispatcher } from './dispatcher.js'
import { fingerprint } from './fingerprint.js'
import type { MessageLimits } from './limits.js'
import { checkMessageLimits } from './limits.js'

export interface TaskServiceOptions {
  store: TaskStore
  events: EventLog
  skills: SkillRegistry
  dispatcher: Dispatcher
  limits: MessageLimits
}

export interface SendInput {
  /** A client-chosen id (the brief's dialect); generated when absent. */
  taskId?: string
  contextId?: string
  message: Message
  /** Request-level metadata; `skillId` here or on the message picks the skill. */
  metadata?: Metadata
}

/** The states a message may continue. */
const CONTINUABLE: readonly TaskState[] = ['input-required']

export class TaskService {
  /** Turns running in this process, by task: a blocking send waits on these directly. */
  readonly #localTurns = new Map<string, Promise<void>>()

  constructor(private readonly options: TaskServiceOptions) {}

  /** Creates a task and starts its first turn; a retry of the same request returns the task. */
  async send(input: SendInput): Promise<{ task: Task; created: boolean }> {
    const { store, skills, limits } = this.options
    checkMessageLimits(input.message, limits)
    const skill = skills.resolve(skillIdOf(input))
    const taskId = input.taskId ?? randomUUID()
    const requestHash = fingerprint({
      skillId: skill.id,
      contextId: input.contextId,
      role: input.message.role,
      parts: input.message.parts,
      metadata: input.message.metadata,
    })
    const status = { state: 'submitted' as const, timestamp: now() }
    const task: Task = {
      id: taskId,
      contextId: input.contextId ?? randomUUID(),
      skillId: skill.id,
      status,
      history: [input.message],
      artifacts: [],
      transitions: [status],
      ...(input.metadata && { metadata: input.metadata }),
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
    const result = await store.create(task, first)
    if (!result.created) {
      if (result.task.requestHash !== requestHash) throw new TaskIdConflictError(taskId)
      return result
    }
    await this.#dispatch(taskId)
    return result
  }

  /** Answers an input-required task: appends the message and starts the next turn. */
  async continue(taskId: string, message: Message): Promise<Task> {
    checkMessageLimits(message, this.options.limits)
    try {
      const { task } = await this.options.store.apply(taskId, {
        kind: 'status',
        status: { state: 'working', timestamp: now() },
        appendToHistory: [message],
        from: CONTINUABLE,
      })
      await this.#dispatch(taskId)
      return task
    } catch (error) {
      if (error instanceof TransitionRejectedError) {
        throw new InvalidTaskStateError(taskId, error.state, CONTINUABLE)
      }
      throw error
    }
  }

  /** Cancels a task that has not ended, and aborts its running turn. */
  async cancel(taskId: string): Promise<Task> {
    try {
      const { task } = await this.options.store.apply(taskId, {
        kind: 'status',
        status: { state: 'canceled', timestamp: now() },
      })
      await this.options.dispatcher.abort(taskId, 'canceled')
      return task
    } catch (error) {
      if (error instanceof TransitionRejectedError) {
        throw new TaskNotCancelableError(taskId, error.state)
      }
      throw error
    }
  }

  /** A turn that cannot start (e.g. during shutdown) fails its task rather than leave it hanging. */
  async #dispatch(taskId: string): Promise<void> {
    try {
      const { ended } = await this.options.dispatcher.dispatch(taskId)
      if (ended) {
        this.#localTurns.set(taskId, ended)
        void ended.finally(() => {
          if (this.#localTurns.get(taskId) === ended) this.#localTurns.delete(taskId)
        })
      }
    } catch (error) {
      const reason = error instanceof A2AError ? error.message : 'The task could not be started'
      await this.options.store
        .apply(taskId, {
          kind: 'status',
          status: {
            state: 'failed',
            timestamp: now(),
            message: agentMessage(randomUUID(), [textPart(reason)]),
          },
        })
        .catch(() => undefined)
      throw error
    }
  }

  async get(taskId: string): Promise<Task> {
    const task = await this.options.store.get(taskId)
    if (!task) throw new TaskNotFoundError(taskId)
    return task
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

  /** The cheap path for a turn running here: no log to follow, one timer. */
  async #waitForTurn(taskId: string, turn: Promise<void>, timeoutMs: number): Promise<Task> {
    let timer: NodeJS.Timeout | undefined
    const timeUp = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs)
    })
    try {
      await Promise.race([turn, timeUp])
    } finally {
      clearTimeout(timer)
    }
    return this.get(taskId)
  }
}

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
