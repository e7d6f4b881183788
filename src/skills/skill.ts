/**
 * The extension point: a Skill is what an agent does. The engine calls `execute` once per turn
 * (again after each input-required continuation, with the whole history), so a skill keeps no
 * state between calls and any process can resume a task.
 */
import type { Logger } from 'pino'
import { z } from 'zod'
import type { MessageContent } from '../domain/parts.js'
import type { SkillCard } from '../domain/agent.js'
import type { Message } from '../domain/model.js'
import { Metadata, Part } from '../domain/model.js'

export type { JsonSchema, SkillCard } from '../domain/agent.js'

export interface ChunkOptions {
  /**
   * Add these parts to the artifact with the same id instead of replacing it: pass the
   * `artifactId` the first `emitArtifact` call returned. Throws when the task has no such
   * artifact, or an earlier chunk of this turn closed it with `lastChunk`.
   */
  append?: boolean
  /** This is the artifact's last chunk. */
  lastChunk?: boolean
}

const Parts = z.array(Part)

/**
 * How a turn ends. Returning nothing means `completed`. The engine checks what `execute`
 * returns against this (a skill in JavaScript may return anything), and fails the task, with
 * the reason in the log, when it is something else.
 */
export const SkillOutcome = z.discriminatedUnion('state', [
  z.object({ state: z.literal('completed'), message: Parts.optional() }),
  z.object({ state: z.literal('input-required'), message: Parts }),
  z.object({ state: z.literal('failed'), message: Parts }),
  z.object({ state: z.literal('rejected'), message: Parts }),
  /**
   * A direct reply: the answer is this message, not a task. The task completes with it; dialects
   * of A2A 0.2+ answer a blocking send with the message alone when the turn emitted no artifact.
   */
  z.object({ state: z.literal('message'), message: Parts }),
])
export type SkillOutcome = z.infer<typeof SkillOutcome>

/** What a skill emits as an artifact; checked as it emits it (`ctx.emitArtifact`). */
export const ArtifactInput = z.object({
  /** Needed to append chunks to an artifact emitted earlier; generated when absent. */
  artifactId: z.string().optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  parts: Parts,
  metadata: Metadata.optional(),
})
export type ArtifactInput = z.infer<typeof ArtifactInput>

/**
 * The data a skill's messages carry, as the skill declares it (`defineSkill<Data>`). Every field
 * is optional: a message without data parts is not checked against `inputSchema`, so a skill
 * still reads each field as possibly absent.
 */
export type SkillData = Record<string, unknown>

/** A turn's input: `MessageContent`, with `data` typed as the skill declares it. */
export type SkillInput<Data extends object = SkillData> = Omit<MessageContent, 'data'> & {
  readonly data: Partial<Data>
}

export interface SkillContext<Data extends object = SkillData> {
  readonly taskId: string
  readonly contextId: string
  /** The message that started this turn. */
  readonly message: Message
  /**
   * Its content, flattened: its text and files; `data` is its data parts merged over the data
   * of the task's earlier user messages (what `inputSchema` checked), so an answer to
   * input-required carries the fields the task was given before.
   */
  readonly input: SkillInput<Data>
  /** The whole conversation, oldest first; the last entry is `message`. */
  readonly history: readonly Message[]
  /** Aborted when the task is canceled, times out, or the server shuts down. */
  readonly signal: AbortSignal
  readonly log: Logger
  /**
   * Report progress: a `working` status with this text. Reports are written in order, batched
   * with what the turn does next; this resolves once the report is accepted (at once, unless many
   * wait to be written), and the turn's outcome is recorded only after every report before it.
   */
  progress(text: string): Promise<void>
  /** Deliver an artifact (or a chunk of one); resolves to its id, accepted as `progress` is. */
  emitArtifact(artifact: ArtifactInput, chunk?: ChunkOptions): Promise<string>
  /** Outcomes, to `return` from `execute`. */
  complete(text?: string): SkillOutcome
  requestInput(question: string): SkillOutcome
  fail(reason: string): SkillOutcome
  reject(reason: string): SkillOutcome
}

/** A task of a skill, canceled while it waited for its caller: no turn ran to see the cancel. */
export interface CanceledWait {
  readonly taskId: string
  readonly contextId: string
  /** The whole conversation, oldest first: the skill's question is the last agent message. */
  readonly history: readonly Message[]
  readonly log: Logger
}

export interface Skill<Data extends object = SkillData> extends SkillCard {
  /**
   * How long one turn may run before its task fails, in ms; overrides SKILL_TIMEOUT_MS for this
   * skill. 0 means no limit.
   */
  timeoutMs?: number
  execute(ctx: SkillContext<Data>): Promise<SkillOutcome | void>
  /**
   * Called when a task of this skill is canceled while it waits for its caller (input-required,
   * auth-required). No turn runs then, so `ctx.signal` cannot tell the skill: this is for work
   * it left open elsewhere while it asked, such as a task it delegated to another agent. The
   * cancel does not wait for it; a failure is logged.
   */
  canceledWhileWaiting?(task: CanceledWait): Promise<void>
}

/**
 * Identity helper that gives a skill object literal its type. `Data` types `ctx.input.data`, as
 * the skill's `inputSchema` describes it (`defineSkill<{ n: number }>({ … })`): a declaration
 * the schema's check stands behind at run time, not one it is derived from.
 */
export const defineSkill = <Data extends object = SkillData>(skill: Skill<Data>): Skill => skill
