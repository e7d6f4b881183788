/**
 * A real SkillContext for driving a skill in tests without the engine: it records progress and
 * artifacts, and builds outcomes the way the engine's context does.
 */
import { randomUUID } from 'node:crypto'
import { pino } from 'pino'
import type { Message, Part } from '../../../src/domain/model.js'
import { contentOf, textPart } from '../../../src/domain/parts.js'
import type {
  ArtifactInput,
  ChunkOptions,
  SkillContext,
  SkillOutcome,
} from '../../../src/skills/skill.js'

export const userMessage = (...parts: Part[]): Message => ({
  messageId: randomUUID(),
  role: 'user',
  parts,
})

export const agentReply = (...parts: Part[]): Message => ({
  messageId: randomUUID(),
  role: 'agent',
  parts,
})

export interface TestContext {
  ctx: SkillContext
  progress: string[]
  artifacts: { artifact: ArtifactInput; chunk?: ChunkOptions }[]
  controller: AbortController
}

export interface ContextOptions {
  /** Called after each progress report is recorded, e.g. to cancel mid-run. */
  onProgress?: (text: string, controller: AbortController) => void
}

/** A context for the turn started by the last message of `history`. */
export function createContext(history: Message[], options: ContextOptions = {}): TestContext {
  const message = history.at(-1)
  if (!message) throw new Error('history needs at least the message that starts the turn')
  const controller = new AbortController()
  const progress: string[] = []
  const artifacts: TestContext['artifacts'] = []
  const outcome = (text: string): Part[] => [textPart(text)]

  const ctx: SkillContext = {
    taskId: randomUUID(),
    contextId: randomUUID(),
    message,
    input: contentOf(message.parts),
    history,
    signal: controller.signal,
    log: pino({ level: 'silent' }),
    progress: (text) => {
      progress.push(text)
      options.onProgress?.(text, controller)
      return Promise.resolve()
    },
    emitArtifact: (artifact, chunk) => {
      artifacts.push(chunk === undefined ? { artifact } : { artifact, chunk })
      return Promise.resolve(artifact.artifactId ?? randomUUID())
    },
    complete: (text): SkillOutcome =>
      text === undefined ? { state: 'completed' } : { state: 'completed', message: outcome(text) },
    requestInput: (question) => ({ state: 'input-required', message: outcome(question) }),
    fail: (reason) => ({ state: 'failed', message: outcome(reason) }),
    reject: (reason) => ({ state: 'rejected', message: outcome(reason) }),
  }
  return { ctx, progress, artifacts, controller }
}
