/**
 * The Orchestrator delegates a skill to a registered agent: it takes the healthy agents that
 * declare the skill, checks each one's live card, sends the task with A2AClient, follows it
 * (streaming when the card offers it, else polling), answers its questions through
 * `onInputRequired`, and returns the artifacts and the final task.
 *
 * Failover: the next agent is tried when one cannot be reached or cannot take the task: its card
 * cannot be read or no longer declares the skill, the connection is refused or drops, a call
 * times out, it answers 5xx, 429 or an internal error (in any dialect), or it answers something
 * that is not A2A. An agent that ran the task and ended it failed, rejected
 * or canceled has given a clear answer: that is not retried elsewhere (the work may have had
 * effects, and another agent would most likely answer the same), it is a DelegatedTaskFailedError.
 * A task given up on, because the caller's signal aborted or to fail over from an agent that
 * took it, is canceled at its agent, so that it does not run on unseen.
 * An agent that refuses the orchestrator's credentials (401, 403) cannot take the task either:
 * another agent may accept them, and nothing was created.
 *
 * Credentials: each agent is called with the token the `token` option gives for it (see
 * AgentToken); the orchestrator never passes on its own caller's token.
 */
import { A2AClient } from '../client/client.js'
import type { A2AClientOptions } from '../client/client.js'
import type { TokenProvider } from '../client/http.js'
import {
  A2ATimeoutError,
  AgentCardError,
  AgentError,
  AgentUnreachableError,
  InvalidAgentResponseError,
  SkillNotDeclaredError,
  StreamInterruptedError,
} from '../client/errors.js'
import type { RemoteMessage, RemoteTask, SendInput } from '../client/model.js'
import { followTask } from '../client/stream-task.js'
import type { Artifact, Part, TaskState } from '../domain/model.js'
import { isFinal } from '../domain/state-machine.js'
import { readCardTwice } from '../registry/card-problem.js'
import {
  AllAgentsFailedError,
  DelegatedTaskFailedError,
  InputRequiredError,
  NoAgentForSkillError,
  textOf,
} from './errors.js'
import type { AgentFailure, AgentRef, UnhealthyAgent } from './errors.js'

/** Where the orchestrator finds agents; AgentRegistry is one. */
export interface AgentLookup {
  /** The healthy agents that declare the skill, best first. */
  findBySkill(skillId: string): Promise<AgentRef[]>
  /** The unhealthy ones, named when no healthy one is left (AgentRegistry has them). */
  unhealthyBySkill?(skillId: string): Promise<UnhealthyAgent[]>
}

/**
 * The bearer token for calling an agent: one token for every agent, or a function of the agent
 * (its registry id, URL and name), asked before every request so that it can refresh or mint a
 * token per agent (e.g. with that agent as the audience).
 */
export type AgentToken = string | ((agent: AgentRef) => string | Promise<string>)

/** What is passed on to the agent. */
export interface DelegationInput {
  text?: string
  data?: Record<string, unknown>
  parts?: Part[]
  metadata?: Record<string, unknown>
}

/** An agent's question, for `onInputRequired`. */
export interface InputQuestion {
  agent: AgentRef
  task: RemoteTask
  /** The question's text parts, joined. */
  text: string
  parts: Part[]
}

/** What the delegation reports while it runs. */
export type DelegationProgress =
  | { kind: 'agent'; agent: AgentRef }
  | { kind: 'status'; agent: AgentRef; taskId: string; state: TaskState; text: string }
  | { kind: 'artifact'; agent: AgentRef; taskId: string; artifact: Artifact }

export interface DelegateOptions {
  /** Answers an agent's question; without it a question ends the delegation (InputRequiredError). */
  onInputRequired?: (question: InputQuestion) => Promise<string | DelegationInput>
  onProgress?: (progress: DelegationProgress) => void | Promise<void>
  signal?: AbortSignal
  /** The longest to poll an agent that does not stream, in ms (default: as long as it takes). */
  waitTimeoutMs?: number
  /** The token for this delegation, in place of the orchestrator's `token`. */
  token?: AgentToken
}

export interface Delegation {
  /** The agent that did the work. */
  agent: AgentRef
  /** The final task; undefined when the agent answered with a message alone. */
  task: RemoteTask | undefined
  artifacts: Artifact[]
  /** The agent's direct reply, when it answered with a message instead of a task. */
  message: RemoteMessage | undefined
  /** The agents tried before it, and why each could not take the task. */
  failures: AgentFailure[]
}

export interface OrchestratorOptions {
  registry: AgentLookup
  /** The token to call the agents with; it takes precedence over `client.token`. */
  token?: AgentToken
  /** How to call the agents: timeout, headers, fetch (and one token for all, `token`). */
  client?: A2AClientOptions
}

export class Orchestrator {
  readonly #registry: AgentLookup
  readonly #client: A2AClientOptions
  readonly #token: AgentToken | undefined

  constructor(options: OrchestratorOptions) {
    this.#registry = options.registry
    this.#client = options.client ?? {}
    this.#token = options.token
  }

  /** Delegates `skillId` with `input` to the first agent that can take it. */
  async delegate(
    skillId: string,
    input: DelegationInput,
    options: DelegateOptions = {},
  ): Promise<Delegation> {
    const agents = await this.#registry.findBySkill(skillId)
    if (agents.length === 0) {
      throw new NoAgentForSkillError(
        skillId,
        (await this.#registry.unhealthyBySkill?.(skillId)) ?? [],
      )
    }
    const failures: AgentFailure[] = []
    for (const agent of agents) {
      const remote: RemoteTaskRef = {}
      try {
        const client = await this.#connect(agent, options)
        client.skill(skillId)
        remote.client = client
        await options.onProgress?.({ kind: 'agent', agent })
        const first = client.card.streaming
          ? await this.#stream(client, agent, { ...input, skill: skillId }, remote, options)
          : await this.#send(client, { ...input, skill: skillId }, remote, options)
        return { ...(await this.#finish(client, agent, first, remote, options)), failures }
      } catch (error) {
        const aborted = options.signal?.aborted === true
        if (!aborted && !canFailOver(error)) throw error
        // Given up on, by the caller or for the next agent: it must not run on unseen.
        cancelAbandoned(remote)
        if (aborted) throw error
        failures.push({ agent, reason: (error as Error).message, error })
      }
    }
    throw new AllAgentsFailedError(skillId, failures)
  }

  /**
   * Answers the question of a task that `delegate` left waiting (an InputRequiredError) and
   * follows it to its end; no failover here, the task lives on that agent.
   */
  async resume(
    agent: AgentRef,
    task: { id: string; contextId: string },
    answer: string | DelegationInput,
    options: DelegateOptions = {},
  ): Promise<Delegation> {
    const client = await this.#connect(agent, options)
    const remote: RemoteTaskRef = { client, taskId: task.id }
    try {
      const next = await this.#answer(client, task, answer, options)
      return { ...(await this.#finish(client, agent, next, remote, options)), failures: [] }
    } catch (error) {
      if (options.signal?.aborted) cancelAbandoned(remote)
      throw error
    }
  }

  /** Cancels a task `delegate` left waiting at `agent`: the task that asked was canceled. */
  async cancel(agent: AgentRef, taskId: string): Promise<void> {
    const client = await this.#connect(agent, {})
    await client.cancel(taskId)
  }

  /** Reads the live card; see readCardTwice for the second try. */
  #connect(agent: AgentRef, options: DelegateOptions): Promise<A2AClient> {
    const token = tokenFor(agent, options.token ?? this.#token)
    const settings = {
      ...this.#client,
      ...(token !== undefined && { token }),
      ...(options.signal && { signal: options.signal }),
    }
    return readCardTwice(() => A2AClient.connect(agent.url, settings))
  }

  /** Follows the task until it is done, answering its questions; throws unless it completed. */
  async #finish(
    client: A2AClient,
    agent: AgentRef,
    result: RemoteTask | RemoteMessage,
    remote: RemoteTaskRef,
    options: DelegateOptions,
  ): Promise<Omit<Delegation, 'failures'>> {
    let current = result
    if (current.kind === 'task') remote.taskId = current.id
    while (current.kind === 'task' && current.status.state === 'input-required') {
      if (!options.onInputRequired) throw new InputRequiredError(agent, current)
      const parts = current.status.message?.parts ?? []
      const answer = await options.onInputRequired({
        agent,
        task: current,
        text: textOf(parts),
        parts,
      })
      current = await this.#answer(client, current, answer, options)
    }
    if (current.kind === 'message') {
      return { agent, task: undefined, artifacts: [], message: current }
    }
    if (current.status.state !== 'completed') throw new DelegatedTaskFailedError(agent, current)
    return { agent, task: current, artifacts: current.artifacts, message: undefined }
  }

  async #answer(
    client: A2AClient,
    task: { id: string; contextId: string },
    answer: string | DelegationInput,
    options: DelegateOptions,
  ): Promise<RemoteTask | RemoteMessage> {
    const input: SendInput = typeof answer === 'string' ? { text: answer } : answer
    const result = await client.continue(task, input, signalOf(options))
    return this.#untilFinal(client, result, options)
  }

  async #send(
    client: A2AClient,
    input: SendInput,
    remote: RemoteTaskRef,
    options: DelegateOptions,
  ): Promise<RemoteTask | RemoteMessage> {
    const result = await client.send(input, signalOf(options))
    if (result.kind === 'task') remote.taskId = result.id
    return this.#untilFinal(client, result, options)
  }

  /** A task that came back before it was final (a seed agent's wait ran out) is polled. */
  async #untilFinal(
    client: A2AClient,
    result: RemoteTask | RemoteMessage,
    options: DelegateOptions,
  ): Promise<RemoteTask | RemoteMessage> {
    if (result.kind === 'message' || isFinal(result.status.state)) return result
    return client.waitForCompletion(result.id, {
      ...signalOf(options),
      ...(options.waitTimeoutMs !== undefined && { timeoutMs: options.waitTimeoutMs }),
    })
  }

  /** Streams the task, reporting its progress; reads it once at the end for the whole of it. */
  async #stream(
    client: A2AClient,
    agent: AgentRef,
    input: SendInput,
    remote: RemoteTaskRef,
    options: DelegateOptions,
  ): Promise<RemoteTask | RemoteMessage> {
    let taskId: string | undefined
    // The task as the stream showed it: the answer when the agent ended it but cannot be read.
    let seen: RemoteTask | undefined
    for await (const event of client.stream(input, signalOf(options))) {
      if (event.kind === 'message') return event
      seen = followTask(seen, event)
      if (event.kind === 'task') taskId = remote.taskId = event.id
      if (event.kind === 'status-update') {
        const text = textOf(event.status.message?.parts)
        await options.onProgress?.({
          kind: 'status',
          agent,
          taskId: event.taskId,
          state: event.status.state,
          text,
        })
      }
      if (event.kind === 'artifact-update') {
        await options.onProgress?.({
          kind: 'artifact',
          agent,
          taskId: event.taskId,
          artifact: event.artifact,
        })
      }
    }
    if (taskId === undefined) throw new AgentUnreachableError('the stream ended without a task')
    try {
      return await client.get(taskId, signalOf(options))
    } catch (error) {
      // An agent that ended the task has answered, even if it is gone before the read (it shut
      // down): a failed task is the answer, never run again elsewhere.
      if (seen && isFinal(seen.status.state)) return seen
      throw error
    }
  }
}

/** The task a delegation started at one agent, once the agent has named it. */
interface RemoteTaskRef {
  client?: A2AClient
  taskId?: string
}

/**
 * Cancels a task the orchestrator gave up on (its caller aborted, or it fails over to the next
 * agent), without waiting: the agent may be unreachable, and a task already ended refuses it.
 */
function cancelAbandoned({ client, taskId }: RemoteTaskRef): void {
  if (client && taskId !== undefined) void client.cancel(taskId).catch(() => undefined)
}

/** The client's token provider for one agent. */
function tokenFor(agent: AgentRef, token: AgentToken | undefined): TokenProvider | undefined {
  return typeof token === 'function' ? () => token(agent) : token
}

const signalOf = (options: DelegateOptions) => (options.signal ? { signal: options.signal } : {})

/** True when the agent could not take the task, so another one should (see the file's doc). */
export function canFailOver(error: unknown): boolean {
  return (
    error instanceof AgentUnreachableError ||
    error instanceof A2ATimeoutError ||
    error instanceof StreamInterruptedError ||
    error instanceof AgentCardError ||
    error instanceof SkillNotDeclaredError ||
    error instanceof InvalidAgentResponseError ||
    (error instanceof AgentError && (error.agentFault || error.busy || error.credentialsRefused))
  )
}
