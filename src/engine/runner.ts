/**
 * Runs one turn of a task: moves it to working, calls the skill's `execute`, and writes the
 * outcome. A failing skill fails its task (details go to the log, never to the caller); a turn
 * that outlives SKILL_TIMEOUT_MS fails with a message saying so.
 */
import { randomUUID } from 'node:crypto'
import type { Logger } from 'pino'
import type { Message, Task, TaskState } from '../domain/model.js'
import { now } from '../domain/model.js'
import { agentMessage, textPart } from '../domain/parts.js'
import type { SkillOutcome } from '../skills/skill.js'
import type { SkillRegistry } from '../skills/registry.js'
import type { TaskStore } from '../store/task-store.js'
import { TransitionRejectedError } from '../store/task-store.js'
import type { Turn } from './turn.js'
import { TurnContext } from './turn-context.js'

export interface RunnerOptions {
  store: TaskStore
  skills: SkillRegistry
  log: Logger
  /** 0 disables the timeout. */
  skillTimeoutMs: number
}

interface TransitionOptions {
  /** The status message (agent text, or a whole message); it joins the history too. */
  message?: Message | string | undefined
  /** Narrows the state machine: apply only from these states. */
  from?: TaskState[]
  directReply?: boolean
}

export class Runner {
  constructor(private readonly options: RunnerOptions) {}

  /**
   * Runs one turn. `turn` is aborted, with a reason, by whoever stops it (cancel, shutdown).
   * Resolves false when the turn ended without recording its outcome (the store failed), so
   * that a queue can run it again; true otherwise.
   */
  async run(taskId: string, turn: Turn): Promise<boolean> {
    const { store, skills } = this.options
    const log = this.options.log
    try {
      let task = await store.get(taskId)
      if (task?.status.state === 'submitted') {
        task = await this.#transition(taskId, 'working', { from: ['submitted'] })
      }
      if (!task || task.status.state !== 'working') return true
      const skill = skills.get(task.skillId)
      if (!skill) {
        const message = `This agent no longer offers skill "${task.skillId}"`
        await this.#transition(taskId, 'failed', { message })
        return true
      }
      const outcome = await this.#execute(task, turn)
      if (outcome !== 'aborted') await this.#finish(taskId, outcome)
      return true
    } catch (error) {
      log.error({ err: error, taskId }, 'turn failed outside the skill')
      return false
    }
  }

  async #execute(task: Task, turn: Turn): Promise<SkillOutcome | 'aborted'> {
    const skill = this.options.skills.get(task.skillId)!
    // A skill's own timeoutMs overrides SKILL_TIMEOUT_MS.
    const skillTimeoutMs = skill.timeoutMs ?? this.options.skillTimeoutMs
    const timer =
      skillTimeoutMs > 0 ? setTimeout(() => turn.abort('timeout'), skillTimeoutMs) : undefined
    const context = new TurnContext(task, turn, this.options.log, this.options.store)
    try {
      // A skill that ignores its signal must not hold the turn: the race ends at the abort.
      const result = await Promise.race([skill.execute(context), turn.whenAborted()])
      if (!turn.aborted) return (result as SkillOutcome | void) ?? { state: 'completed' }
    } catch (error) {
      if (!turn.aborted) {
        context.log.error({ err: error }, 'skill threw')
        return { state: 'failed', message: [textPart('The skill failed with an internal error')] }
      }
    } finally {
      clearTimeout(timer)
    }
    const reason = turn.reason
    if (reason === 'timeout') {
      return {
        state: 'failed',
        message: [textPart(`The task timed out after ${skillTimeoutMs} ms`)],
      }
    }
    if (reason === 'shutdown') {
      return {
        state: 'failed',
        message: [textPart('The server shut down before the task finished')],
      }
    }
    return 'aborted'
  }

  async #finish(taskId: string, outcome: SkillOutcome): Promise<void> {
    const message = outcome.message && agentMessage(randomUUID(), outcome.message)
    // A direct reply completes the task; the status records that the message is the answer.
    if (outcome.state === 'message') {
      await this.#transition(taskId, 'completed', { message, directReply: true })
    } else {
      await this.#transition(taskId, outcome.state, { message })
    }
  }

  /** Writes a status; a task that has meanwhile ended (e.g. canceled) keeps its state. */
  async #transition(
    taskId: string,
    state: TaskState,
    { message, from, directReply = false }: TransitionOptions = {},
  ): Promise<Task | undefined> {
    const statusMessage =
      typeof message === 'string' ? agentMessage(randomUUID(), [textPart(message)]) : message
    try {
      const { task } = await this.options.store.apply(taskId, {
        kind: 'status',
        status: {
          state,
          timestamp: now(),
          ...(statusMessage && { message: statusMessage }),
          ...(directReply && { directReply }),
        },
        ...(statusMessage && state !== 'working' && { appendToHistory: [statusMessage] }),
        ...(from && { from }),
      })
      return task
    } catch (error) {
      if (error instanceof TransitionRejectedError) return undefined
      throw error
    }
  }
}
