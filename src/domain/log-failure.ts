/**
 * How a failure is logged, wherever it ends (a reply, a stream, a turn): a refusal the server
 * chose while a part it needs is away (Redis, the signing keys), or while it is full or shutting
 * down (ServiceUnavailableError), is a warning that names its cause; anything else is a fault,
 * an error. An outage then does not page whoever watches the error level once per refused
 * request, stream or turn.
 */
import { ServiceUnavailableError } from './errors.js'

/** The part of a logger (pino's) this needs. */
export interface FailureLog {
  warn(fields: object, message: string): void
  error(fields: object, message: string): void
}

/**
 * Logs `error`: `refused: <its message>` at warn for a refusal, `failed` at error otherwise,
 * with `fields` (the error itself as `err` by default). A refusal's line carries its cause as
 * one line of text (`cause`) instead of `err`: the refusal is the server's own choice, so its
 * stack says nothing, and during an outage every refused request would log one.
 */
export function logFailure(
  log: FailureLog,
  error: unknown,
  messages: { refused: string; failed: string },
  fields: object = { err: error },
): void {
  if (error instanceof ServiceUnavailableError) {
    const { err, ...rest } = fields as { err?: unknown }
    const cause = causeOf(err === undefined || err === error ? error.cause : err)
    log.warn({ ...rest, ...(cause !== '' && { cause }) }, `${messages.refused}: ${error.message}`)
  } else {
    log.error(fields, messages.failed)
  }
}

/** The messages of `error` and its causes, joined by ": " ("" when there is none). */
function causeOf(error: unknown): string {
  const messages: string[] = []
  for (let at = error; at instanceof Error && messages.length < 5; at = at.cause) {
    messages.push(at.message)
  }
  return messages.join(': ')
}
