/**
 * The `orchestrate` skill: this agent, reachable over A2A, delegates to the agents of its
 * registry. Opt-in: BUNDLED_SKILLS=…,orchestrate.
 *
 * Input: the skill to delegate to as `delegateSkillId`, in a data part or the message's
 * metadata; the message's text, its other data fields and its files are passed on (a message
 * that held nothing else is passed on as the empty data part left, for the agent to answer).
 * Progress says which agent works on it and relays that agent's status messages; the agent's
 * artifacts are delivered as this task's artifacts. When the agent asks a question, this task
 * asks it in turn (input-required); the caller's answer is passed on and the delegated task
 * continues. Canceling this task cancels the delegated one: while it runs, through the turn's
 * signal; while this task waits for the caller's answer, through `canceledWhileWaiting`.
 */
import type { DataPart, Message, Part } from '../domain/model.js'
import { dataPart, textPart } from '../domain/parts.js'
import type { Skill, SkillContext } from '../skills/skill.js'
import { defineSkill } from '../skills/skill.js'
import { A2AClientError, AgentError } from '../client/errors.js'
import { AgentNotFoundError } from '../domain/errors.js'
import {
  AllAgentsFailedError,
  DelegatedTaskFailedError,
  InputRequiredError,
  allAgentsFailed,
} from './errors.js'
import type { AgentRef } from './errors.js'
import type { Delegation, DelegationProgress, Orchestrator } from './orchestrator.js'

export const ORCHESTRATE_SKILL_ID = 'orchestrate'
/** Where the caller names the skill to delegate to (a data part field or message metadata). */
export const DELEGATE_SKILL_FIELD = 'delegateSkillId'
/** The data part of this skill's question that says which delegated task waits for the answer. */
const WAITING_FIELD = 'delegation'

interface Waiting {
  agentId: string
  taskId: string
  contextId: string
}

export interface OrchestrateSkillOptions {
  orchestrator: Orchestrator
  /** Finds a registered agent again by id, to continue a task that asked a question. */
  agents: { get(agentId: string): Promise<AgentRef> }
  /**
   * Said after each agent's refusal of the orchestrator's token (401, 403) in a failed task:
   * where that token comes from, so that the caller knows which setting to fix.
   */
  tokenHint?: string
}

export function orchestrateSkill(options: OrchestrateSkillOptions): Skill {
  const { orchestrator, agents, tokenHint } = options
  return defineSkill({
    id: ORCHESTRATE_SKILL_ID,
    name: 'Orchestrate',
    description:
      'Delegates a task to a registered agent that declares the skill named in delegateSkillId, and relays its progress, questions and artifacts',
    tags: ['orchestration', 'delegation'],
    examples: ['{"delegateSkillId": "review-pr"} with the diff as text'],
    inputModes: ['text/plain', 'application/json'],
    outputModes: ['text/plain', 'application/json'],
    inputSchema: {
      type: 'object',
      properties: { [DELEGATE_SKILL_FIELD]: { type: 'string', minLength: 1 } },
    },
    async execute(ctx) {
      /** Passes the answer on to the agent whose question this task asked; says who failed. */
      const resume = async (
        waiting: Waiting,
        answer: { parts: Part[] },
        handlers: Parameters<Orchestrator['resume']>[3],
      ) => {
        const agent = await agents.get(waiting.agentId)
        try {
          return await orchestrator.resume(
            agent,
            { id: waiting.taskId, contextId: waiting.contextId },
            answer,
            handlers,
          )
        } catch (error) {
          // The agent's own answers (another question, a failed task) go on as they are.
          const answered =
            error instanceof InputRequiredError || error instanceof DelegatedTaskFailedError
          throw error instanceof A2AClientError && !answered ? new ResumeError(agent, error) : error
        }
      }
      const handlers = {
        signal: ctx.signal,
        onProgress: (progress: DelegationProgress) => report(ctx, progress),
      }
      try {
        const waiting = waitingIn(ctx.history)
        const delegation = waiting
          ? await resume(waiting, { parts: ctx.message.parts }, handlers)
          : await orchestrator.delegate(...request(ctx), handlers)
        return await deliver(ctx, delegation)
      } catch (error) {
        return outcomeOf(ctx, error, tokenHint)
      }
    },
    async canceledWhileWaiting(task) {
      const waiting = waitingIn(task.history)
      if (!waiting) return
      await orchestrator.cancel(await agents.get(waiting.agentId), waiting.taskId)
      task.log.info(
        { delegation: waiting },
        'canceled the delegated task that waited for the same answer',
      )
    },
  })
}

/** The skill id to delegate to, and what to pass on. */
function request(ctx: SkillContext): [string, { parts: Part[] }] {
  const fromData = ctx.input.data[DELEGATE_SKILL_FIELD]
  const fromMetadata = ctx.message.metadata?.[DELEGATE_SKILL_FIELD]
  const skillId = typeof fromData === 'string' ? fromData : fromMetadata
  if (typeof skillId !== 'string' || skillId === '') {
    throw new InputError(
      `Name the skill to delegate to as "${DELEGATE_SKILL_FIELD}" in a data part or the message metadata`,
    )
  }
  return [skillId, { parts: passedOn(ctx.message.parts) }]
}

/**
 * The caller's parts without `delegateSkillId`. A data part left empty is left out when other
 * parts carry the message (an agent that takes text alone would refuse it), and passed on as
 * `{}` when it is all there is: the agent, not the hub, decides what an empty message means (it
 * may ask for input).
 */
function passedOn(parts: readonly Part[]): Part[] {
  const stripped = parts.map((part): Part => {
    if (part.kind !== 'data') return part
    const { [DELEGATE_SKILL_FIELD]: _skill, ...rest } = part.data
    return { ...part, data: rest }
  })
  const carrying = stripped.filter((p) => p.kind !== 'data' || Object.keys(p.data).length > 0)
  return carrying.length > 0 ? carrying : stripped
}

/** The delegated task this task's last question was about, if the last agent message asked one. */
function waitingIn(history: readonly Message[]): Waiting | undefined {
  const question = history.findLast((message) => message.role === 'agent')
  const part = question?.parts.find(
    (p): p is DataPart => p.kind === 'data' && WAITING_FIELD in p.data,
  )
  const waiting = part?.data[WAITING_FIELD] as Partial<Waiting> | undefined
  const fields = [waiting?.agentId, waiting?.taskId, waiting?.contextId]
  return fields.every((field) => typeof field === 'string') ? (waiting as Waiting) : undefined
}

async function report(ctx: SkillContext, progress: DelegationProgress): Promise<void> {
  const { agent } = progress
  if (progress.kind === 'agent') await ctx.progress(`${agent.name} is working on it`)
  if (progress.kind === 'status' && progress.text !== '') {
    await ctx.progress(`${agent.name}: ${progress.text}`)
  }
}

async function deliver(ctx: SkillContext, delegation: Delegation) {
  const { agent } = delegation
  for (const artifact of delegation.artifacts) {
    await ctx.emitArtifact({
      ...(artifact.name !== undefined && { name: artifact.name }),
      ...(artifact.description !== undefined && { description: artifact.description }),
      parts: artifact.parts,
      metadata: { ...artifact.metadata, delegatedTo: agent.name },
    })
  }
  if (delegation.message) {
    await ctx.emitArtifact({
      name: 'reply',
      parts: delegation.message.parts,
      metadata: { delegatedTo: agent.name },
    })
  }
  return ctx.complete(`Done by ${agent.name}`)
}

class InputError extends Error {}

/**
 * The answer could not be passed on: named by agent, as the caller never saw the delegated
 * task's id. An agent that no longer has the task (it restarted with its tasks in memory, or the
 * task expired) is said to be so, with what to do.
 */
class ResumeError extends A2AClientError {
  constructor(agent: AgentRef, error: A2AClientError) {
    const lost = error instanceof AgentError && error.reason === 'TASK_NOT_FOUND'
    super(
      lost
        ? `${agent.name} (${agent.url}) no longer has the task that asked the question (it restarted, or the task expired): send the request again as a new task`
        : `${agent.name} (${agent.url}) could not take the answer: ${error.message}`,
      { cause: error },
    )
  }
}

function outcomeOf(ctx: SkillContext, error: unknown, tokenHint: string | undefined) {
  if (error instanceof InputError) return ctx.reject(error.message)
  if (error instanceof InputRequiredError) {
    const question = error.task.status.message?.parts ?? [textPart(error.message)]
    const waiting: Waiting = {
      agentId: error.agent.id,
      taskId: error.task.id,
      contextId: error.task.contextId,
    }
    return {
      state: 'input-required' as const,
      message: [...question, dataPart({ [WAITING_FIELD]: waiting })],
    }
  }
  // The agent's failure, or no agent at all: the task fails with the reason.
  if (error instanceof A2AClientError || error instanceof AgentNotFoundError) {
    return ctx.fail(tokenHint === undefined ? error.message : withTokenHint(error, tokenHint))
  }
  throw error
}

/** The error's message, with the hint after each agent's refusal of the token (401, 403). */
function withTokenHint(error: Error, hint: string): string {
  const hinted = (cause: unknown, reason: string) =>
    cause instanceof AgentError && cause.credentialsRefused ? `${reason} (${hint})` : reason
  // A refused answer is the ResumeError's cause.
  if (error instanceof ResumeError) return hinted(error.cause, error.message)
  if (!(error instanceof AllAgentsFailedError)) return hinted(error, error.message)
  const failures = error.failures.map((f) => ({ ...f, reason: hinted(f.error, f.reason) }))
  return allAgentsFailed(error.skillId, failures)
}
