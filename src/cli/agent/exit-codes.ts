/**
 * The exit codes of the commands that call an agent (card, send, stream, get, cancel), and how
 * a failure reads on stderr: the agent's own code and message, never a stack trace.
 */
import {
  A2ATimeoutError,
  AgentCardError,
  AgentError,
  AgentUnreachableError,
  InvalidAgentResponseError,
  SkillNotDeclaredError,
  StreamInterruptedError,
  isRetryable,
} from '../../client/errors.js'
import type { TaskState } from '../../domain/model.js'

export const EXIT = {
  /** completed (send, stream); read (card, get); cancel accepted */
  ok: 0,
  /** the task ended failed, rejected or canceled */
  taskUnsuccessful: 1,
  /** the agent answered the request with an error */
  agentError: 2,
  /** the task waits for input and no answer came (--no-input, or stdin ended) */
  inputRequired: 3,
  /** bad options or arguments, or a --skill the card does not declare */
  usage: 64,
  /** a --file that cannot be read */
  noInput: 66,
  /** the agent cannot be reached */
  unavailable: 69,
  /** a timeout, or the agent is busy or unavailable for a moment (HTTP 429, 502, 503, 504) */
  tryAgain: 75,
  /** the agent answered with something that is not A2A (or a card this client cannot use) */
  protocol: 76,
  /** the token is missing, invalid or not allowed (HTTP 401, 403), or the task needs auth */
  auth: 77,
} as const

/** A failure the command itself found (bad arguments, unreadable file), with its exit code. */
export class CliFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message)
  }
}

export const usageFailure = (message: string) => new CliFailure(message, EXIT.usage)

/** The exit code a send or stream ends with, from the state the task reached. */
export function exitCodeOfState(state: TaskState): number {
  switch (state) {
    case 'completed':
      return EXIT.ok
    case 'input-required':
      return EXIT.inputRequired
    case 'auth-required':
      return EXIT.auth
    case 'failed':
    case 'rejected':
    case 'canceled':
      return EXIT.taskUnsuccessful
    default:
      // submitted or working: the command stopped following a task that still runs.
      return EXIT.tryAgain
  }
}

export function exitCodeOf(error: unknown): number {
  if (error instanceof CliFailure) return error.exitCode
  if (error instanceof SkillNotDeclaredError) return EXIT.usage
  if (error instanceof AgentError) {
    if (error.credentialsRefused) return EXIT.auth
    if (tryLater(error)) return EXIT.tryAgain
    // No A2A endpoint there: a web server's own "not found" or "not implemented".
    if (notA2A(error) && [404, 405, 501].includes(error.status)) return EXIT.protocol
    return EXIT.agentError
  }
  if (error instanceof A2ATimeoutError) return EXIT.tryAgain
  // A stream whose agent kept saying "unavailable, retry later" is busy, not unreachable.
  if (error instanceof StreamInterruptedError) {
    return error.cause instanceof AgentError && tryLater(error.cause)
      ? EXIT.tryAgain
      : EXIT.unavailable
  }
  if (error instanceof AgentUnreachableError) return EXIT.unavailable
  if (error instanceof AgentCardError) {
    // No card where an agent serves one: whatever answers there is not an A2A agent.
    if (error.problem === 'not-found') return EXIT.protocol
    // A card behind an answer that is an error of its own (a 401 before the card, a 503).
    return error.cause instanceof AgentError ? exitCodeOf(error.cause) : EXIT.protocol
  }
  if (error instanceof InvalidAgentResponseError) return EXIT.protocol
  return EXIT.agentError
}

/**
 * Worth trying again later: the agent is busy, or unavailable for a moment, as a gateway in
 * front of it says with 502, 503 or 504 (the same replies the client resumes a stream after).
 */
const tryLater = (error: AgentError): boolean => error.busy || isRetryable(error)

/** An error reply whose body is no A2A error (a proxy's or a web server's page). */
const notA2A = (error: AgentError): boolean =>
  error.reason === undefined && error.code === error.status

/** The line(s) stderr shows for a failure: the agent's code, reason and message as it sent them. */
export function describeFailure(error: unknown, hasToken: boolean): string {
  if (error instanceof AgentError && notA2A(error)) {
    // An HTML page's summary says its status already, and that it is not the agent's.
    const line = error.message.startsWith(`HTTP ${error.status} `)
      ? error.message
      : `the agent answered HTTP ${error.status}, not with an A2A error: ${error.message}`
    return exitCodeOf(error) === EXIT.auth && !hasToken ? `${line}\n${TOKEN_HINT}` : line
  }
  if (error instanceof AgentError) {
    const code = String(error.code)
    const reason = error.reason !== undefined && error.reason !== code ? ` ${error.reason}` : ''
    const line = `the agent answered ${code}${reason} (HTTP ${error.status}): ${error.message}`
    return exitCodeOf(error) === EXIT.auth && !hasToken ? `${line}\n${TOKEN_HINT}` : line
  }
  if (error instanceof AgentUnreachableError) return `cannot reach the agent: ${error.message}`
  if (error instanceof StreamInterruptedError && error.cause instanceof Error) {
    return `${error.message}: ${error.cause.message}`
  }
  return error instanceof Error ? error.message : String(error)
}

export const TOKEN_HINT =
  'Pass --token <token> or set A2A_TOKEN (a dev-mode server prints one; "a2a token" mints one).'

/** The exit code table, for --help. */
export const EXIT_HELP = `Exit codes:
  0   completed (send, stream), read (card, get), cancel accepted
  1   the task ended failed, rejected or canceled
  2   the agent answered with an error (its code and message are printed)
  3   the task waits for input and no answer was given (--no-input, stdin closed)
  64  usage error, or a --skill the agent's card does not declare
  66  a --file cannot be read
  69  the agent cannot be reached
  75  timed out, or the agent is busy or unavailable for a moment (HTTP 429, 502, 503, 504)
  76  no Agent Card at the URL, or an answer or card that is not A2A this client can use
  77  authentication refused (HTTP 401, 403: no token, bad token, missing scope), or the task
      is auth-required
`
