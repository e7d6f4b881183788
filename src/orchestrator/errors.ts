/** What can go wrong when delegating a skill, as classes a caller can tell apart. */
import { A2AClientError } from '../client/errors.js'
import type { RemoteTask } from '../client/model.js'
import type { Part } from '../domain/model.js'

/** The agent a delegation went to, as the registry knows it. */
export interface AgentRef {
  id: string
  url: string
  name: string
}

/** One agent that could not take the task, and why. */
export interface AgentFailure {
  agent: AgentRef
  reason: string
  error: unknown
}

/** An agent the registry holds but skips, its health checks failing. */
export interface UnhealthyAgent {
  name: string
  url: string
  /** Why its last check failed. */
  lastError?: string
}

/**
 * No healthy registered agent declares the skill: none declares it at all (a misspelt skill
 * id, an agent never registered), or those that do are unhealthy, each named with why.
 */
export class NoAgentForSkillError extends A2AClientError {
  constructor(
    readonly skillId: string,
    readonly unhealthy: readonly UnhealthyAgent[] = [],
  ) {
    super(
      unhealthy.length === 0
        ? `No registered agent declares skill "${skillId}"`
        : `No healthy registered agent declares skill "${skillId}": ${unhealthy
            .map(
              (agent) =>
                `${agent.name} (${agent.url}) is unhealthy${agent.lastError ? `: ${agent.lastError}` : ''}`,
            )
            .join('; ')}`,
    )
  }
}

/** Every agent that declares the skill was tried, and none could be reached. */
export class AllAgentsFailedError extends A2AClientError {
  constructor(
    readonly skillId: string,
    readonly failures: readonly AgentFailure[],
  ) {
    super(allAgentsFailed(skillId, failures))
  }
}

/** AllAgentsFailedError's message: each agent, and its reason. */
export function allAgentsFailed(skillId: string, failures: readonly AgentFailure[]): string {
  const each = failures.map((f) => `${f.agent.name} (${f.agent.url}): ${f.reason}`).join('; ')
  return `Every agent for skill "${skillId}" failed: ${each}`
}

/** The agent ran the task and it ended failed, rejected or canceled: its own, clear answer. */
export class DelegatedTaskFailedError extends A2AClientError {
  constructor(
    readonly agent: AgentRef,
    readonly task: RemoteTask,
  ) {
    const said = textOf(task.status.message?.parts)
    super(`${agent.name} ended the task ${task.status.state}${said ? `: ${said}` : ''}`)
  }
}

/** The agent asks a question and the delegation has no `onInputRequired` to answer it. */
export class InputRequiredError extends A2AClientError {
  constructor(
    readonly agent: AgentRef,
    readonly task: RemoteTask,
  ) {
    super(
      `${agent.name} asks for input ("${textOf(task.status.message?.parts)}") and no onInputRequired callback was given`,
    )
  }
}

export const textOf = (parts: readonly Part[] | undefined): string =>
  (parts ?? [])
    .map((part) => (part.kind === 'text' ? part.text : ''))
    .filter(Boolean)
    .join('\n')
