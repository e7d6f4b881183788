/**
 * A2AClient: the calling side of A2A. It reads the agent's card, speaks the dialect the card
 * names (the brief's /tasks routes, or A2A JSON-RPC 1.0 / 0.3), and gives every dialect the
 * same operations, results, events and errors.
 */
import { randomUUID } from 'node:crypto'
import { Part } from '../domain/model.js'
import type { Message } from '../domain/model.js'
import { plainly } from '../domain/issue-messages.js'
import { dataPart, textPart } from '../domain/parts.js'
import { isFinal } from '../domain/state-machine.js'
import type { BackoffOptions } from './backoff.js'
import { backoffDelay, sleep } from './backoff.js'
import type { AgentCard, CardSkill, ResolveOptions } from './card.js'
import { declaredSkill, resolveCard } from './card.js'
import {
  A2AClientError,
  A2ATimeoutError,
  AgentError,
  StreamInterruptedError,
  StreamingNotSupportedError,
  isRetryable,
  retryDelayOf,
} from './errors.js'
import type { CallOptions, TokenProvider } from './http.js'
import { HttpClient } from './http.js'
import { JsonRpcTransport } from './jsonrpc/transport.js'
import { v03Codec } from './jsonrpc/v03.js'
import { v10Codec } from './jsonrpc/v10.js'
import type { RemoteTask, SendInput, SendResult, StreamEvent } from './model.js'
import { SeedTransport } from './seed/transport.js'
import { TaskTracker } from './task-tracker.js'
import type { SendOptions, SendRequest, StreamItem, Transport } from './transport.js'

export interface A2AClientOptions {
  /** A bearer token, or a function asked before every request (so it can refresh). */
  token?: TokenProvider
  /** The timeout of one call, in ms (default 30 s). For a stream: until it starts. */
  timeoutMs?: number
  /** Extra headers on every request. */
  headers?: Record<string, string>
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch
  /**
   * How a dropped stream reconnects: up to `retries` times in a row, with backoff, waiting at
   * least the delay the agent asks for. An agent that asks for more than `maxRetryAfterMs`
   * (default 60 s) is not waited for: the stream ends with StreamInterruptedError at once.
   */
  reconnect?: BackoffOptions & { retries?: number; maxRetryAfterMs?: number }
}

/** The longest delay an agent may ask a dropped stream to wait before its reconnect. */
const MAX_RETRY_AFTER_MS = 60_000

export interface WaitOptions extends BackoffOptions {
  signal?: AbortSignal
  /** Gives up (A2ATimeoutError) after this long, in ms; default: wait as long as it takes. */
  timeoutMs?: number
}

const DEFAULT_TIMEOUT_MS = 30_000

export class A2AClient {
  readonly card: AgentCard
  readonly #transport: Transport
  readonly #options: A2AClientOptions

  /** A client for an agent whose card is already read (see `A2AClient.connect`). */
  constructor(card: AgentCard, options: A2AClientOptions = {}) {
    this.card = card
    this.#options = options
    const http = httpOf(options)
    this.#transport =
      card.dialect === 'seed'
        ? new SeedTransport(http, card.endpoint)
        : new JsonRpcTransport(
            http,
            card.endpoint,
            card.dialect === 'jsonrpc-1.0' ? v10Codec : v03Codec,
          )
  }

  /**
   * Reads the agent's card at `url` (its base URL, or the card's own URL) and returns a client
   * that speaks the dialect the card names.
   */
  static async connect(
    url: string,
    options: A2AClientOptions & ResolveOptions = {},
  ): Promise<A2AClient> {
    const card = await resolveCard(httpOf(options), url, options)
    return new A2AClient(card, options)
  }

  /** The skill as the card declares it; SkillNotDeclaredError names the skills it does declare. */
  skill(skillId: string): CardSkill {
    return declaredSkill(this.card, skillId)
  }

  /** Sends a message and waits for the answer: a task (terminal or waiting for input) or a reply. */
  async send(input: SendInput, options: SendOptions = {}): Promise<SendResult> {
    return this.#transport.send(this.#request(input), options)
  }

  /**
   * Sends a message and yields what happens to its task: the task first, then status and
   * artifact updates, until the task is terminal or waits for input. A dropped connection
   * reconnects (`Last-Event-ID` in the seed dialect, a new subscription in JSON-RPC) and no
   * event is yielded twice.
   */
  async *stream(input: SendInput, options: CallOptions = {}): AsyncGenerator<StreamEvent> {
    if (!this.card.streaming) throw new StreamingNotSupportedError(this.card.name)
    const request = this.#request(input)
    yield* this.#follow(request.taskId, request, this.#transport.stream(request, options), options)
  }

  /** The task as it is now; `historyLength` limits the history it carries. */
  get(taskId: string, options: CallOptions & { historyLength?: number } = {}): Promise<RemoteTask> {
    return this.#transport.get(taskId, options)
  }

  cancel(taskId: string, options: CallOptions = {}): Promise<RemoteTask> {
    return this.#transport.cancel(taskId, options)
  }

  /** Answers a task that asked for input (state `input-required`). */
  async continue(
    task: { id: string; contextId: string },
    input: SendInput,
    options: SendOptions = {},
  ): Promise<SendResult> {
    const request = this.#request({ ...input, contextId: task.contextId })
    return this.#transport.continue(task, { ...request, taskId: task.id }, options)
  }

  /**
   * Polls the task, with exponential backoff and jitter, until it is terminal or waits for
   * input: for agents that do not stream, or a send that returned early.
   */
  async waitForCompletion(taskId: string, options: WaitOptions = {}): Promise<RemoteTask> {
    const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs
    for (let attempt = 1; ; attempt++) {
      const task = await this.get(taskId, { ...(options.signal && { signal: options.signal }) })
      if (isFinal(task.status.state)) return task
      // The last look is at the deadline, not a backoff step before it.
      const left = deadline - Date.now()
      if (left <= 0) throw new A2ATimeoutError(`Waiting for task ${taskId}`, options.timeoutMs!)
      const delay = backoffDelay(attempt, { initialDelayMs: 250, ...options })
      await sleep(Math.min(delay, left), options.signal)
    }
  }

  async *#follow(
    knownTaskId: string | undefined,
    request: SendRequest,
    first: AsyncIterable<StreamItem>,
    options: CallOptions,
  ): AsyncGenerator<StreamEvent> {
    const {
      retries = 5,
      maxRetryAfterMs = MAX_RETRY_AFTER_MS,
      ...backoff
    } = this.#options.reconnect ?? {}
    const tracker = new TaskTracker()
    let source = first
    let failures = 0
    for (;;) {
      let dropped: unknown
      try {
        for await (const item of source) {
          const events = tracker.accept(item)
          // Only news counts as progress: a resume that repeats what was seen, then drops
          // again, must run out of retries rather than reconnect for ever.
          if (events.length > 0) failures = 0
          for (const event of events) yield event
          if (tracker.ended) return
        }
        dropped = new A2AClientError('the stream closed before the task reached a final state')
      } catch (error) {
        if (!isRetryable(error)) throw error
        dropped = error
      }
      // Nothing identifies the task yet, or nothing says that the agent took the message (a
      // continuation refused at once): a resume that only follows the task would drop it.
      const taskId =
        tracker.taskId ?? (this.#transport.resumeRepeatsRequest ? knownTaskId : undefined)
      if (taskId === undefined) throw dropped
      if (++failures > retries) throw new StreamInterruptedError(taskId, retries, dropped)
      // The agent's own retry delay is a floor: a resume sooner would only be refused again.
      // One longer than the caller would wait unawares ends the stream instead (its cause says
      // how long the agent asked for).
      const asked = retryDelayOf(dropped)
      if (asked > maxRetryAfterMs) throw new StreamInterruptedError(taskId, failures - 1, dropped)
      const delay = Math.max(backoffDelay(failures, backoff), asked)
      await sleep(delay, options.signal)
      source = this.#resume(taskId, tracker, request, options)
    }
  }

  /** Follows the task again; a task that can no longer be followed is read once instead. */
  async *#resume(
    taskId: string,
    tracker: TaskTracker,
    request: SendRequest,
    options: CallOptions,
  ): AsyncGenerator<StreamItem> {
    const from = { request, ...(tracker.cursor !== undefined && { cursor: tracker.cursor }) }
    try {
      yield* this.#transport.resubscribe(taskId, from, options)
    } catch (error) {
      // e.g. the task ended while disconnected, and a terminal task has nothing to stream.
      if (!(error instanceof AgentError) || isRetryable(error)) throw error
      const task = await this.#transport.get(taskId, options)
      if (!isFinal(task.status.state)) throw error
      yield { event: task }
    }
  }

  #request(input: SendInput): SendRequest {
    if (input.skill !== undefined) this.skill(input.skill)
    const parts: Part[] = [
      ...(input.text !== undefined ? [textPart(input.text)] : []),
      ...(input.data !== undefined ? [dataPart(input.data)] : []),
      ...(input.parts ?? []),
    ]
    if (parts.length === 0) throw new A2AClientError('A message needs text, data or parts')
    // A part no dialect can carry is the caller's mistake, not something to send.
    parts.forEach((part, index) => {
      const checked = Part.safeParse(part, plainly)
      if (!checked.success) {
        const issue = checked.error.issues[0]!
        const where = ['parts', index, ...issue.path].join('.').replace(/\.(\d+)/g, '[$1]')
        throw new TypeError(`${where}: ${issue.message}`)
      }
    })
    const message: Message = {
      messageId: randomUUID(),
      role: 'user',
      parts,
      ...(input.skill !== undefined && { metadata: { skillId: input.skill } }),
    }
    const seed = this.#transport.dialect === 'seed'
    const taskId = input.taskId ?? (seed ? randomUUID() : undefined)
    return {
      message,
      ...(taskId !== undefined && { taskId }),
      ...(input.contextId !== undefined && { contextId: input.contextId }),
      ...(input.metadata && { metadata: input.metadata }),
    }
  }
}

const httpOf = (options: A2AClientOptions) =>
  new HttpClient({
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    ...(options.token !== undefined && { token: options.token }),
    ...(options.headers && { headers: options.headers }),
    ...(options.fetch && { fetch: options.fetch }),
  })
