/**
 * Runs one turn of a task: moves it to working, calls the skill's `execute`, and writes the
 * outcome. A failing skill fails its task (details go to the log, never to the caller); a turn
 * that outlives SKILL_TIMEOUT_MS fails with a message saying so.
 */
import type { Logger } from 'pino'
import type { TaskChange } from '../domain/events.js'
import { ServiceUnavailableError } from '../domain/errors.js'
import { logFailure } from '../domain/log-failure.js'
import { newId } from '../domain/ids.js'
import type { Message, Task, TaskState } from '../domain/model.js'
import { now } from '../domain/model.js'
import { issueList, plainly } from '../domain/issue-messages.js'
import { describeJsonProblem, jsonProblem } from '../domain/json-value.js'
import { agentMessage, textPart } from '../domain/parts.js'
import { SkillOutcome } from '../skills/skill.js'
import type { SkillRegistry } from '../skills/registry.js'
import type { TaskStore, WriteOrigin } from '../store/task-store.js'
import type { ActiveTaskCap } from './active-task-cap.js'
import { OutlivingSkills } from './outliving-skills.js'
import type { Turn } from './turn.js'
import { TurnWriter } from './turn-writer.js'
import { TurnContext } from './turn-context.js'

export interface RunnerOptions {
  store: TaskStore
  skills: SkillRegistry
  log: Logger
  /** 0 disables the timeout. */
  skillTimeoutMs: number
  /** Told when a task's turn has ended without handing it on. */
  activeTaskCap?: ActiveTaskCap
  /** When a skill still running after its turn was stopped is logged and counted (ms). */
  outlivingAfterMs?: number
}

/**
 * How a turn ended: `recorded` false when the store failed before its writes were stored;
 * `storeUnavailable` then tells an outage (the store was unreachable: the turn can run again
 * once it is back) from a fault. `missingSkill`: this process does not have the task's skill
 * (its settings differ from the process that took the task); nothing was written, and another
 * process may run the turn.
 */
export type TurnResult =
  | { recorded: true; task: Task | undefined }
  | { recorded: false; storeUnavailable: boolean; missingSkill?: string }

interface TransitionOptions {
  /** The status message (agent text, or a whole message); it joins the history too. */
  message?: Message | string | undefined
  /** Narrows the state machine: apply only from these states. */
  from?: TaskState[]
  directReply?: boolean
}

/** The states a turn runs in: a task that has moved on since it was queued is left as it is. */
const RUNNABLE: ReadonlySet<TaskState> = new Set(['submitted', 'working'])

export class Runner {
  readonly #outliving: OutlivingSkills

  constructor(private readonly options: RunnerOptions) {
    this.#outliving = new OutlivingSkills(options.outlivingAfterMs)
  }

  /** The ids of the skills this runner runs. */
  get skillIds(): string[] {
    return this.options.skills.ids()
  }

  /** Skills still running well after their turn was stopped: they ignore `ctx.signal`. */
  get outlivingSkills(): number {
    return this.#outliving.count
  }

  /**
   * Runs one turn. `turn` is aborted, with a reason, by whoever stops it (cancel, shutdown).
   * Resolves unrecorded when the turn ended without storing its writes (the store failed), so
   * that a queue can run it again; recorded otherwise, with the task as the turn left it.
   * `known`: the task as the dispatcher has just written it, so the turn need not read it back.
   * A cancel written since then refuses the turn's writes, and reaches the turn as an abort
   * through the dispatcher (on a queue, through the control channel).
   */
  async run(taskId: string, turn: Turn, origin?: WriteOrigin, known?: Task): Promise<TurnResult> {
    const result = await this.#run(taskId, turn, origin, known)
    // A released turn runs on elsewhere; an unrecorded one runs again.
    if (result.recorded && turn.reason !== 'released') this.settle(taskId, result.task)
    return result
  }

  /**
   * Ends a task's turn without running it, because it may not run again (a queue used up its
   * attempts): fails the task with `text`, as a failing turn would, and frees its caller's slot.
   * Throws what the store throws (TransitionRejectedError: the task had ended already).
   */
  async abandon(taskId: string, text: string): Promise<Task> {
    const message = agentMessage(newId(), [textPart(text)])
    const { task } = await this.options.store.apply(taskId, {
      kind: 'status',
      status: { state: 'failed', timestamp: now(), message },
      appendToHistory: [message],
      from: ['submitted', 'working'],
    })
    this.settle(taskId, task)
    return task
  }

  /**
   * A turn of the task has ended, as `task` shows (read after the turn's last write): a task it
   * left terminal no longer counts against its caller's cap on open tasks, and one it left
   * waiting for input keeps its slot while it waits. Every end of a turn comes here: a run, an
   * abandoned turn, and a turn found ended after its process died.
   */
  settle(taskId: string, task: Task | undefined): void {
    // Not awaited: the outcome is stored, and the store sends this caller's next admission
    // after the release (memory releases at once). A failed release is logged, and lapses.
    if (task) void this.options.activeTaskCap?.settle(task.owner, taskId, task.status.state)
  }

  async #run(
    taskId: string,
    turn: Turn,
    origin: WriteOrigin | undefined,
    known: Task | undefined,
  ): Promise<TurnResult> {
    const { store, skills, log } = this.options
    const writer = new TurnWriter(store, taskId, origin)
    try {
      const task = known ?? (await store.get(taskId))
      if (!task || !RUNNABLE.has(task.status.state)) return { recorded: true, task }
      // Nothing written: a process that has the skill may run the turn (see QueueWorker).
      if (!skills.get(task.skillId)) {
        return { recorded: false, storeUnavailable: false, missingSkill: task.skillId }
      }
      if (task.status.state === 'submitted') {
        // Written with the turn's first reports; a cancel meanwhile refuses it and aborts the turn.
        void writer.report(status('working', { from: ['submitted'] }))
      }
      const outcome = await this.#execute(task, turn, writer)
      if (outcome === 'aborted') await writer.flush()
      else await writer.write(outcomeChange(outcome))
      // A turn that wrote nothing (aborted at once) hands back the task as it found it.
      return { recorded: true, task: writer.task ?? task }
    } catch (error) {
      // Unrecorded: a queue runs it again. The store being away is a refusal, not a fault.
      logFailure(
        log,
        error,
        { refused: 'turn stopped', failed: 'turn failed outside the skill' },
        { err: error, taskId },
      )
      return { recorded: false, storeUnavailable: error instanceof ServiceUnavailableError }
    }
  }

  async #execute(task: Task, turn: Turn, writer: TurnWriter): Promise<SkillOutcome | 'aborted'> {
    const skill = this.options.skills.get(task.skillId)!
    // A skill's own timeoutMs overrides SKILL_TIMEOUT_MS.
    const skillTimeoutMs = skill.timeoutMs ?? this.options.skillTimeoutMs
    const timer =
      skillTimeoutMs > 0 ? setTimeout(() => turn.abort('timeout'), skillTimeoutMs) : undefined
    const context = new TurnContext(task, turn, this.options.log, writer)
    let execution: Promise<unknown> | undefined
    try {
      execution = Promise.resolve(skill.execute(context))
      // A skill that ignores its signal must not hold the turn: the race ends at the abort.
      const result = await Promise.race([execution, turn.whenAborted()])
      if (!turn.aborted) return outcomeOf(result, context)
    } catch (error) {
      if (!turn.aborted) {
        // A report the store could not take (Redis away) rejected in the skill: not its fault.
        logFailure(context.log, error, { refused: 'skill stopped', failed: 'skill threw' })
        return internalError()
      }
    } finally {
      clearTimeout(timer)
    }
    if (execution) this.#outliving.watch(execution, turn.reason!, context.log)
    const reason = turn.reason
    if (reason === 'timeout') {
      // The caller sees the task fail; the operator should see which skill ran too long.
      context.log.warn({ timeoutMs: skillTimeoutMs }, 'skill timed out')
      return {
        state: 'failed',
        message: [textPart(`The task timed out after ${skillTimeoutMs} ms`)],
      }
    }
    if (reason === 'shutdown') {
      // Which task held the shutdown: the operator sees it failed, and why.
      context.log.warn('skill still running when the shutdown grace ended: its task fails')
      return {
        state: 'failed',
        message: [textPart('The server shut down before the task finished')],
      }
    }
    return 'aborted'
  }
}

/** What a failing skill's task says; the details go to the log, never to the caller. */
const internalError = (): SkillOutcome => ({
  state: 'failed',
  message: [textPart('The skill failed with an internal error')],
})

/**
 * What `execute` resolved with, checked: nothing is `completed`, anything but an outcome fails.
 * The turn's logger is made only for that error: most turns never log.
 */
function outcomeOf(result: unknown, context: { log: Logger }): SkillOutcome {
  if (result === undefined) return { state: 'completed' }
  // What JSON cannot carry would be stored, and fail every read of the task (json-value.ts).
  const notJson = jsonProblem(result)
  let problem: string
  if (notJson === undefined) {
    const outcome = SkillOutcome.safeParse(result, plainly)
    if (outcome.success) {
      const ignored = ignoredFields(result as object)
      if (ignored.length > 0) {
        context.log.warn(
          { ignored },
          'skill returned an outcome with fields that are not part of one: they are ignored (an outcome is { state, message })',
        )
      }
      return outcome.data
    }
    problem = issueList(outcome.error, '(outcome)', 3)
  } else {
    problem = describeJsonProblem(notJson)
  }
  context.log.error(
    { outcome: problem },
    'skill returned something that is not an outcome (use ctx.complete, ctx.fail, …)',
  )
  return internalError()
}

/** The fields of a skill's outcome beyond `state` and `message` (none, for the helpers' own). */
function ignoredFields(outcome: object): string[] {
  let ignored: string[] | undefined
  for (const key in outcome) {
    if (key !== 'state' && key !== 'message') (ignored ??= []).push(key)
  }
  return ignored ?? []
}

/** A status change; `message` (agent text, or a whole message) joins the history too. */
function status(state: TaskState, { message, from, directReply = false }: TransitionOptions = {}) {
  const statusMessage =
    typeof message === 'string' ? agentMessage(newId(), [textPart(message)]) : message
  return {
    kind: 'status',
    status: {
      state,
      timestamp: now(),
      ...(statusMessage && { message: statusMessage }),
      ...(directReply && { directReply }),
    },
    ...(statusMessage && state !== 'working' && { appendToHistory: [statusMessage] }),
    ...(from && { from }),
  } satisfies TaskChange
}

/** How a skill's outcome is written. A direct reply completes the task, marked as the answer. */
function outcomeChange(outcome: SkillOutcome): TaskChange {
  const message = outcome.message && agentMessage(newId(), outcome.message)
  return outcome.state === 'message'
    ? status('completed', { message, directReply: true })
    : status(outcome.state, { message })
}
