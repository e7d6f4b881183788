/** The SkillContext a running turn gets: its reports become task changes, written in order. */
import type { Logger } from 'pino'
import type { TaskChange } from '../domain/events.js'
import { newId } from '../domain/ids.js'
import { issueList, plainly } from '../domain/issue-messages.js'
import { describeJsonProblem, jsonProblem } from '../domain/json-value.js'
import type { Artifact, Message, Task } from '../domain/model.js'
import { now } from '../domain/model.js'
import { agentMessage, contentOf, textPart, userDataOf } from '../domain/parts.js'
import type { MessageContent } from '../domain/parts.js'
import type { ChunkOptions, SkillContext, SkillOutcome } from '../skills/skill.js'
import { ArtifactInput } from '../skills/skill.js'
import type { Turn } from './turn.js'
import type { TurnWriter } from './turn-writer.js'

export class TurnContext implements SkillContext {
  readonly taskId: string
  readonly contextId: string
  readonly message: Message
  readonly input: MessageContent
  readonly history: readonly Message[]
  readonly skillId: string

  #log: Logger | undefined
  /** The task's artifacts as this turn knows them: true once a chunk said it was the last. */
  readonly #artifacts: Map<string, boolean>

  constructor(
    task: Task,
    private readonly turn: Turn,
    private readonly parentLog: Logger,
    private readonly writer: TurnWriter,
  ) {
    this.taskId = task.id
    this.contextId = task.contextId
    this.skillId = task.skillId
    this.history = task.history
    this.message = task.history.findLast((message) => message.role === 'user') ?? {
      messageId: newId(),
      role: 'user',
      parts: [],
    }
    // Its data is what inputSchema checked: merged over the task's earlier user messages.
    this.input = { ...contentOf(this.message.parts), data: userDataOf(task.history) }
    this.#artifacts = new Map(task.artifacts.map(({ artifactId }) => [artifactId, false]))
  }

  get signal(): AbortSignal {
    return this.turn.signal
  }

  /** A child logger bound to the task and skill, made on first use (most turns never log). */
  get log(): Logger {
    this.#log ??= this.parentLog.child({ taskId: this.taskId, skillId: this.skillId })
    return this.#log
  }

  async progress(text: string): Promise<void> {
    // A skill in JavaScript may pass anything: what callers would get is checked here.
    if (typeof text !== 'string') {
      throw new TypeError(`progress: the text must be a string (got ${describe(text)})`)
    }
    await this.#apply({
      kind: 'status',
      status: {
        state: 'working',
        timestamp: now(),
        message: agentMessage(newId(), [textPart(text)]),
      },
      from: ['working'],
    })
  }

  async emitArtifact(artifact: ArtifactInput, chunk: ChunkOptions = {}): Promise<string> {
    // A skill in JavaScript may pass anything: a wrong part, or what JSON cannot carry (which
    // would fail every read of the task), fails here, in the skill's own call.
    const notJson = jsonProblem(artifact)
    if (notJson) throw new TypeError(`emitArtifact: ${describeJsonProblem(notJson)}`)
    const checked = ArtifactInput.safeParse(artifact, plainly)
    if (!checked.success) {
      throw new TypeError(`emitArtifact: ${issueList(checked.error, '(artifact)', 3)}`)
    }
    const append = chunk.append ?? false
    const lastChunk = chunk.lastChunk ?? false
    const artifactId = checked.data.artifactId ?? (append ? missingId() : newId())
    if (append) this.#checkAppend(artifactId)
    this.#artifacts.set(artifactId, lastChunk)
    await this.#apply({
      kind: 'artifact',
      artifact: artifactOf(checked.data, artifactId),
      append,
      lastChunk,
    })
    return artifactId
  }

  /** A chunk extends an artifact the task has, which no earlier chunk said was its last. */
  #checkAppend(artifactId: string): void {
    const closed = this.#artifacts.get(artifactId)
    if (closed === undefined) {
      throw new TypeError(
        `emitArtifact: the task has no artifact "${artifactId}" to append to; emit its first chunk without append`,
      )
    }
    if (closed) {
      throw new TypeError(
        `emitArtifact: artifact "${artifactId}" was closed by a chunk with lastChunk; append to it no more`,
      )
    }
  }

  complete(text?: string): SkillOutcome {
    return text === undefined
      ? { state: 'completed' }
      : { state: 'completed', message: [textPart(text)] }
  }

  requestInput(question: string): SkillOutcome {
    return { state: 'input-required', message: [textPart(question)] }
  }

  fail(reason: string): SkillOutcome {
    return { state: 'failed', message: [textPart(reason)] }
  }

  reject(reason: string): SkillOutcome {
    return { state: 'rejected', message: [textPart(reason)] }
  }

  /** Once the task has ended (canceled, timed out), a skill's late reports are dropped. */
  #apply(change: TaskChange): Promise<void> {
    if (this.turn.aborted) return Promise.resolve()
    return this.writer.report(change)
  }
}

const describe = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value

function missingId(): never {
  throw new TypeError(
    'emitArtifact: append needs the artifactId of the artifact to extend (the id the first emitArtifact call returned)',
  )
}

/**
 * The artifact as stored, built as one literal: a spread of the parsed input gave artifacts of
 * many tasks each its own hidden class, which the heap then kept once per task.
 */
function artifactOf(input: ArtifactInput, artifactId: string): Artifact {
  const { name, description, parts, metadata } = input
  return {
    artifactId,
    ...(name !== undefined && { name }),
    ...(description !== undefined && { description }),
    parts,
    ...(metadata !== undefined && { metadata }),
  }
}
