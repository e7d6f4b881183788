/**
 * `a2a send` and `a2a stream`: send a message, follow its task to a final state, and when the
 * task asks for input, ask the user (stdin) and continue it, as long as it keeps asking.
 */
import { randomUUID } from 'node:crypto'
import type { Writable } from 'node:stream'
import type { A2AClient } from '../../client/client.js'
import { A2ATimeoutError, AgentError } from '../../client/errors.js'
import type { RemoteTask, SendInput, SendResult, StreamEvent } from '../../client/model.js'
import { followTask } from '../../client/stream-task.js'
import type { TaskState } from '../../domain/model.js'
import { isFinal } from '../../domain/state-machine.js'
import type { Answers } from './answers.js'
import { EXIT, exitCodeOfState } from './exit-codes.js'
import { Printer } from './printer.js'
import { questionOf } from './render.js'

export interface Conversation {
  client: A2AClient
  /** The agent's URL as the user gave it, for the hints that pick a task up later. */
  url: string
  /** How long to wait for a task's end once the agent has it (--timeout). */
  waitMs: number
  input: SendInput
  /** An input-required task to answer with `input` instead of starting a new one. */
  taskId?: string | undefined
  answers: Answers
  json: boolean
  /** `stream` prints JSON one event per line; `send` prints the final task. */
  mode: 'send' | 'stream'
  out: Pick<Writable, 'write'>
  err: Pick<Writable, 'write'>
  /** The task being followed, as last seen: what an interrupted command tells the user. */
  followed: Followed
}

export interface Followed {
  id?: string
  state?: TaskState
}

type Turn = { task: RemoteTask } | { exitCode: number }

/** Blocking sends; prints the task once it is final (each question on the way). */
export async function sendAndFollow(
  talk: Conversation,
  printer = humanPrinter(talk),
): Promise<number> {
  let { result, followed } = await firstSend(talk, printer)
  for (;;) {
    if (result.kind === 'message') return reply(talk, printer, result)
    let task = result
    see(talk, task.id, task.status.state)
    if (!isFinal(task.status.state)) {
      // A followed stream has waited for the task already, as long as it may.
      const ended = followed ? undefined : await waitForEnd(talk, task)
      if (ended === undefined) return stillRunning(talk, printer, task)
      task = ended
      see(talk, task.id, task.status.state)
    }
    if (!talk.json) printer.task(task)
    if (task.status.state !== 'input-required') return finish(talk, task)
    const answer = await ask(talk, task)
    if (answer === undefined) return finish(talk, task)
    see(talk, task.id, 'submitted')
    result = await talk.client.continue(task, { text: answer })
    followed = false
  }
}

/** Streams; prints each state and artifact as it comes (JSON: one event per line). */
export async function streamAndFollow(talk: Conversation): Promise<number> {
  const { client } = talk
  const printer = humanPrinter(talk)
  if (!client.card.streaming) {
    talk.err.write(`a2a: ${client.card.name} does not stream; sending and waiting instead\n`)
    return sendAndFollow(talk, printer)
  }
  // The seed dialect continues a task with a blocking send only; follow it that way.
  const seed = client.card.dialect === 'seed'
  if (talk.taskId !== undefined && seed) return sendAndFollow(talk, printer)
  let input = talk.input
  if (talk.taskId !== undefined) input = { ...input, ...(await continuation(talk, talk.taskId)) }
  for (;;) {
    const turn = await follow(talk, printer, client.stream(input))
    if ('exitCode' in turn) return turn.exitCode
    const { task } = turn
    if (task.status.state !== 'input-required') return exitCodeOfState(task.status.state)
    const answer = await ask(talk, task)
    if (answer === undefined) return EXIT.inputRequired
    if (seed) return sendAndFollow({ ...talk, input: { text: answer }, taskId: task.id }, printer)
    see(talk, task.id, 'submitted')
    input = { text: answer, taskId: task.id, contextId: task.contextId }
  }
}

async function follow(
  talk: Conversation,
  printer: Printer,
  events: AsyncIterable<StreamEvent>,
): Promise<Turn> {
  let task: RemoteTask | undefined
  for await (const event of events) {
    if (talk.json) talk.out.write(`${JSON.stringify(event)}\n`)
    else printer.event(event)
    if (event.kind === 'message') return { exitCode: EXIT.ok }
    task = apply(task, event)
    see(talk, task.id, task.status.state)
  }
  if (task === undefined) throw new Error('the stream ended without a task')
  return { task }
}

/** The task as the stream has shown it; a stream's first event is never a direct reply here. */
function apply(task: RemoteTask | undefined, event: StreamEvent): RemoteTask {
  return followTask(task, event)!
}

/**
 * The agent answered before the task was done (its own wait ran out): says so at once, with the
 * task's id, then polls for at most --timeout; undefined when the task is still running then.
 */
async function waitForEnd(talk: Conversation, task: RemoteTask): Promise<RemoteTask | undefined> {
  talk.err.write(
    `a2a: task ${task.id} is ${task.status.state}; waiting for it to end (at most ${talk.waitMs} ms)\n`,
  )
  try {
    return await talk.client.waitForCompletion(task.id, { timeoutMs: talk.waitMs })
  } catch (error) {
    if (error instanceof A2ATimeoutError) return undefined
    throw error
  }
}

/** Prints the task as it was last seen, and how to look at it later; exits "try again". */
function stillRunning(talk: Conversation, printer: Printer, task: RemoteTask): number {
  if (!talk.json) printer.task(task)
  talk.err.write(
    `a2a: task ${task.id} has not ended after ${talk.waitMs} ms. See it later with:\n` +
      `  a2a get ${talk.url} ${task.id}\n`,
  )
  return finish(talk, task)
}

/** The first answer, and whether the CLI has already followed the task to it (a stream). */
interface FirstAnswer {
  result: SendResult
  followed: boolean
}

async function firstSend(talk: Conversation, printer: Printer): Promise<FirstAnswer> {
  if (talk.taskId === undefined) return newTask(talk, printer)
  const task = await talk.client.get(talk.taskId, { historyLength: 0 })
  announce(talk, printer, task.id, 'submitted')
  return { result: await talk.client.continue(task, talk.input), followed: false }
}

/**
 * Sends the first message, and tells the task's id as soon as it is known, so that a send the
 * user stops can still be canceled. In the seed dialect the client names the task: before the
 * send. In JSON-RPC the agent does: a streaming agent at the stream's first event, and `send`
 * then waits for the task's end by following the stream; an agent that does not stream names it
 * only in its answer.
 */
async function newTask(talk: Conversation, printer: Printer): Promise<FirstAnswer> {
  const { client } = talk
  if (client.card.dialect !== 'seed') {
    if (client.card.streaming) {
      try {
        return await streamToEnd(talk, printer)
      } catch (error) {
        // The caller's other streams (other commands with the same token) fill the agent's cap:
        // `send` needs no stream, only its end.
        if (!(error instanceof AgentError && error.reason === 'STREAM_LIMIT')) throw error
        talk.err.write(
          `a2a: ${client.card.name} has as many of your streams open as it allows; sending and waiting instead\n`,
        )
      }
    }
    return { result: await client.send(talk.input), followed: false }
  }
  const taskId = talk.input.taskId ?? randomUUID()
  announce(talk, printer, taskId, 'submitted')
  try {
    return { result: await client.send({ ...talk.input, taskId }), followed: false }
  } catch (error) {
    if (error instanceof A2ATimeoutError) {
      talk.err.write(
        `a2a: task ${taskId} may still be running. See it later with:\n` +
          `  a2a get ${talk.url} ${taskId}\n`,
      )
    }
    throw error
  }
}

/**
 * Streams the message and follows the task quietly, for at most --timeout, then reads the task
 * as it is (the whole task, as a blocking send would answer it). A direct reply is the answer.
 */
async function streamToEnd(talk: Conversation, printer: Printer): Promise<FirstAnswer> {
  const deadline = new AbortController()
  let timer: NodeJS.Timeout | undefined
  let task: RemoteTask | undefined
  try {
    for await (const event of talk.client.stream(talk.input, { signal: deadline.signal })) {
      if (event.kind === 'message') return { result: event, followed: true }
      if (task === undefined) {
        // The agent has the task: from now on --timeout bounds the wait for its end.
        timer = setTimeout(
          () => deadline.abort(new A2ATimeoutError('Waiting for the task', talk.waitMs)),
          talk.waitMs,
        )
      }
      const known = task
      task = apply(task, event)
      if (known === undefined) announce(talk, printer, task.id, task.status.state)
      see(talk, task.id, task.status.state)
    }
  } catch (error) {
    // Out of time: the task is shown as it is now, and how to see it later.
    if (!deadline.signal.aborted || task === undefined) throw error
  } finally {
    clearTimeout(timer)
  }
  if (task === undefined) throw new Error('the stream ended without a task')
  return { result: await talk.client.get(task.id), followed: true }
}

/** The task's id, as soon as it is known: the first line of the human output, as `stream`'s. */
function announce(talk: Conversation, printer: Printer, taskId: string, state: TaskState): void {
  see(talk, taskId, state)
  if (!talk.json) printer.id(taskId)
}

function see(talk: Conversation, id: string, state: TaskState): void {
  talk.followed.id = id
  talk.followed.state = state
}

/**
 * What to tell a user who stops the command (Ctrl-C) while the task has not ended: it goes on
 * without the command, and how to stop it, or to answer it. Nothing once it has ended.
 */
export function interruptedHint(talk: Conversation): string | undefined {
  const { id, state } = talk.followed
  if (id === undefined || state === undefined) return undefined
  if (state === 'input-required') return answerHint(talk, id)
  if (isFinal(state)) return undefined
  return `a2a: task ${id} is still running on the agent; stop it with: a2a cancel ${talk.url} ${id}\n`
}

const answerHint = (talk: Conversation, id: string): string =>
  `a2a: task ${id} waits for input. Answer it with:\n` +
  `  a2a send ${talk.url} --task ${id} "<answer>"\n`

/** The task and context ids that continue `taskId`, which must be waiting for input. */
async function continuation(talk: Conversation, taskId: string) {
  const task = await talk.client.get(taskId, { historyLength: 0 })
  return { taskId: task.id, contextId: task.contextId }
}

/** Shows the question and reads the answer; undefined (after a hint) when none comes. */
async function ask(talk: Conversation, task: RemoteTask): Promise<string | undefined> {
  // The human output has shown the question already, as the task's status.
  if (talk.json) talk.err.write(`the agent asks: ${questionOf(task.status)}\n`)
  const answer = await talk.answers.next()
  if (answer === undefined) {
    talk.err.write(answerHint(talk, task.id))
  }
  return answer
}

function finish(talk: Conversation, task: RemoteTask): number {
  if (talk.json) talk.out.write(`${jsonOf(talk, task)}\n`)
  return exitCodeOfState(task.status.state)
}

function reply(talk: Conversation, printer: Printer, message: SendResult): number {
  if (talk.json) talk.out.write(`${jsonOf(talk, message)}\n`)
  else if (message.kind === 'message') printer.reply(message)
  return EXIT.ok
}

function humanPrinter(talk: Conversation): Printer {
  return new Printer((lines) => talk.out.write(`${lines.join('\n')}\n`))
}

const jsonOf = (talk: Conversation, value: unknown): string =>
  talk.mode === 'stream' ? JSON.stringify(value) : JSON.stringify(value, null, 2)
