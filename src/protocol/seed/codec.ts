/** Translates between the brief's wire shapes and the internal model, both ways. */
import { canonicalJson } from '../../domain/canonical-json.js'
import { newId } from '../../domain/ids.js'
import type { Artifact, Message, Part, Task, TaskState, TaskStatus } from '../../domain/model.js'
import type { SeedMessage, SeedPart } from './schemas.js'

export function messageFromSeed(message: SeedMessage): Message {
  return {
    messageId: newId(),
    role: message.role,
    parts: message.parts.map(partFromSeed),
    ...(message.metadata && { metadata: message.metadata }),
  }
}

/** The brief's parts are the internal parts with `type` where the model says `kind`. */
function partFromSeed({ type, ...rest }: SeedPart): Part {
  return { kind: type, ...rest } as Part
}

export function partToSeed({ kind, ...rest }: Part): Record<string, unknown> {
  return { type: kind, ...rest }
}

export const messageToSeed = (message: Message) => ({
  role: message.role,
  parts: message.parts.map(partToSeed),
  ...(message.metadata && { metadata: message.metadata }),
})

/**
 * Whether `message` is the task's last continuation once more (a message from the user after
 * the one that created the task): the brief's messages carry no id, so a retried continuation
 * is told by its content.
 */
export function repeatsLastContinuation(task: Task, message: SeedMessage): boolean {
  const fromUser = task.history.filter((m) => m.role === 'user')
  if (fromUser.length < 2) return false
  const again = messageToSeed(messageFromSeed(message))
  return canonicalJson(messageToSeed(fromUser.at(-1)!)) === canonicalJson(again)
}

/**
 * The brief's lifecycle has six states: a task the agent rejected (A2A 0.2+'s `rejected`) is
 * `failed` to its clients, its status message saying why.
 */
const stateToSeed = (state: TaskState) => (state === 'rejected' ? 'failed' : state)

export const statusToSeed = (status: TaskStatus) => ({
  state: stateToSeed(status.state),
  timestamp: status.timestamp,
  ...(status.message && { message: messageToSeed(status.message) }),
})

export const artifactToSeed = (artifact: Artifact, index: number) => ({
  name: artifact.name,
  description: artifact.description,
  parts: artifact.parts.map(partToSeed),
  index,
  ...(artifact.metadata && { metadata: artifact.metadata }),
})

/** The Task as the brief's clients read it; `historyLength` adds the last N messages. */
export function taskToSeed(task: Task, historyLength?: number) {
  return {
    id: task.id,
    sessionId: task.contextId,
    status: statusToSeed(task.status),
    artifacts: task.artifacts.map(artifactToSeed),
    ...(historyLength !== undefined &&
      historyLength > 0 && { history: task.history.slice(-historyLength).map(messageToSeed) }),
    statusHistory: task.transitions.map(statusToSeed),
    ...(task.metadata && { metadata: task.metadata }),
  }
}
export type SeedTask = ReturnType<typeof taskToSeed>
