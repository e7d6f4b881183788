/**
 * The pure rule for changing a task: what a TaskStore applies atomically. The Redis store runs
 * the same rule in Lua; the contract suite holds both to it.
 */
import type { TaskChange, TaskEvent } from './events.js'
import { assertNever } from './events.js'
import type { Artifact, Task, TaskState } from './model.js'
import { now } from './model.js'
import { canTransition, isFinal, isTerminal } from './state-machine.js'

export type ChangeResult =
  { ok: true; task: Task; event: TaskEvent } | { ok: false; state: TaskState }

/** Applies `change` to a copy of `task`, or says which state refused it. */
export function applyChange(task: Task, change: TaskChange): ChangeResult {
  const state = task.status.state
  switch (change.kind) {
    case 'status': {
      const next = change.status.state
      const allowedFrom = change.from ?? null
      if (!canTransition(state, next) || (allowedFrom && !allowedFrom.includes(state))) {
        return { ok: false, state }
      }
      const updated: Task = {
        ...task,
        updatedAt: change.status.timestamp,
        status: change.status,
        history: change.appendToHistory
          ? [...task.history, ...change.appendToHistory]
          : task.history,
        transitions:
          next === state ? task.transitions : [...task.transitions, withoutMessage(change.status)],
      }
      return {
        ok: true,
        task: updated,
        event: {
          kind: 'status-update',
          taskId: task.id,
          contextId: task.contextId,
          status: change.status,
          final: isFinal(next),
        },
      }
    }
    case 'artifact': {
      if (isTerminal(state)) return { ok: false, state }
      return {
        ok: true,
        task: {
          ...task,
          updatedAt: now(),
          artifacts: mergeArtifact(task.artifacts, change.artifact, change.append),
        },
        event: {
          kind: 'artifact-update',
          taskId: task.id,
          contextId: task.contextId,
          artifact: change.artifact,
          append: change.append,
          lastChunk: change.lastChunk,
        },
      }
    }
    default:
      return assertNever(change)
  }
}

/** A chunk with `append` extends the artifact with its id; otherwise it replaces or adds. */
export function mergeArtifact(
  artifacts: Artifact[],
  artifact: Artifact,
  append: boolean,
): Artifact[] {
  const index = artifacts.findIndex((existing) => existing.artifactId === artifact.artifactId)
  if (index === -1) return [...artifacts, artifact]
  const merged = artifacts.slice()
  const existing = artifacts[index]!
  merged[index] = append ? { ...existing, parts: [...existing.parts, ...artifact.parts] } : artifact
  return merged
}

const withoutMessage = ({ state, timestamp }: Task['status']): Task['status'] => ({
  state,
  timestamp,
})
