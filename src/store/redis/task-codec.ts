/**
 * How a task is laid out in its Redis hash, and how a change is handed to apply.lua.
 *
 * The hash holds JSON fragments rather than one document, so that apply.lua can change a task
 * without decoding it (its doc block says why):
 *   head            JSON of the fields no change touches (id, contextId, skillId, owner, …)
 *   state           the current state, plain, for the state-machine check
 *   status          JSON
 *   updatedAt       RFC 3339, plain
 *   history         JSON array of messages
 *   transitions     JSON array of statuses
 *   artifacts       JSON array of artifact ids, in order
 *   artifact:<id>   JSON of one artifact without its parts
 *   parts:<id>      JSON array of that artifact's parts
 *   contextIdJson   the contextId as a JSON string, which apply.lua splices into events
 */
import type { ArtifactUpdateEvent, StatusUpdateEvent, TaskChange } from '../../domain/events.js'
import { assertNever } from '../../domain/events.js'
import { now, Task } from '../../domain/model.js'
import { isFinal, isTerminal, OPEN_STATES, predecessorsOf } from '../../domain/state-machine.js'

/** Stored data that does not decode to a task or an event: a bug or a hand edit, never input. */
export class StoredDataError extends Error {
  constructor(taskId: string, problem: string) {
    super(`Stored data of task ${taskId} ${problem}`)
    this.name = 'StoredDataError'
  }
}

/** A task's hash, field → value (see hashFields). */
export type TaskFields = ReadonlyMap<string, string>

/** The task as hash field/value pairs, for create.lua. */
export function encodeTask(task: Task): string[] {
  const { status, updatedAt, history, transitions, artifacts, ...head } = task
  const pairs = [
    ['head', JSON.stringify(head)],
    ['state', status.state],
    ['status', JSON.stringify(status)],
    ['updatedAt', updatedAt],
    ['history', JSON.stringify(history)],
    ['transitions', JSON.stringify(transitions)],
    ['artifacts', JSON.stringify(artifacts.map((artifact) => artifact.artifactId))],
    ['contextIdJson', JSON.stringify(task.contextId)],
  ]
  for (const { parts, ...artifact } of artifacts) {
    pairs.push([`artifact:${artifact.artifactId}`, JSON.stringify(artifact)])
    pairs.push([`parts:${artifact.artifactId}`, JSON.stringify(parts)])
  }
  return pairs.flat()
}

/** Just the task's contextId, from its hash (without decoding the rest). */
export function contextIdOf(taskId: string, fields: TaskFields): string {
  try {
    const contextId: unknown = JSON.parse(fields.get('contextIdJson') ?? '')
    if (typeof contextId === 'string') return contextId
  } catch {
    // falls through to the error below
  }
  throw new StoredDataError(taskId, 'has no valid field "contextIdJson"')
}

/** The task a hash holds; a fresh object each time, so callers get copies. */
export function decodeTask(taskId: string, fields: TaskFields): Task {
  const json = (field: string): unknown => {
    const text = fields.get(field)
    if (text === undefined) throw new StoredDataError(taskId, `lacks the field "${field}"`)
    try {
      return JSON.parse(text)
    } catch {
      throw new StoredDataError(taskId, `has invalid JSON in the field "${field}"`)
    }
  }
  const artifactIds = json('artifacts')
  if (!Array.isArray(artifactIds)) {
    throw new StoredDataError(taskId, 'has a field "artifacts" that is not an array')
  }
  const parsed = Task.safeParse({
    ...(json('head') as object),
    status: json('status'),
    updatedAt: fields.get('updatedAt'),
    history: json('history'),
    transitions: json('transitions'),
    artifacts: artifactIds.map((id) => ({
      ...(json(`artifact:${String(id)}`) as object),
      parts: json(`parts:${String(id)}`),
    })),
  })
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue?.path.join('.') || '(root)'
    throw new StoredDataError(taskId, `is not a valid task: ${where}: ${issue?.message}`)
  }
  return parsed.data
}

type WithoutContext<E> = E extends unknown ? Omit<E, 'contextId'> : never

/** A change made ready for apply.lua: its 10 arguments, and its event minus the contextId the script adds. */
export interface PreparedChange {
  args: string[]
  event: WithoutContext<StatusUpdateEvent | ArtifactUpdateEvent>
}

/** Computes what applyChange would, in pieces apply.lua can splice (see its doc block). */
export function prepareChange(
  taskId: string,
  change: TaskChange,
  terminalTtlSeconds: number,
): PreparedChange {
  switch (change.kind) {
    case 'status': {
      const { status } = change
      const from = predecessorsOf(status.state).filter(
        (state) => change.from?.includes(state) ?? true,
      )
      const event = { kind: 'status-update' as const, taskId, status, final: isFinal(status.state) }
      const transition = { state: status.state, timestamp: status.timestamp }
      const ttl = isTerminal(status.state) ? terminalTtlSeconds : 0
      const args = ['status', from.join(' '), status.timestamp, JSON.stringify(event), String(ttl)]
      args.push(status.state, JSON.stringify(status), JSON.stringify(transition))
      args.push(elements(change.appendToHistory ?? []), isTerminal(status.state) ? '1' : '')
      return { args, event }
    }
    case 'artifact': {
      const { parts, ...artifact } = change.artifact
      const event = {
        kind: 'artifact-update' as const,
        taskId,
        artifact: change.artifact,
        append: change.append,
        lastChunk: change.lastChunk,
      }
      const updatedAt = now()
      const args = ['artifact', OPEN_STATES.join(' '), updatedAt, JSON.stringify(event), '0']
      args.push(artifact.artifactId, JSON.stringify(artifact.artifactId), JSON.stringify(artifact))
      args.push(elements(parts), change.append ? '1' : '0')
      return { args, event }
    }
    default:
      return assertNever(change)
  }
}

/** An array's elements as JSON text without the brackets: what apply.lua splices in. */
const elements = (items: readonly unknown[]): string => JSON.stringify(items).slice(1, -1)
