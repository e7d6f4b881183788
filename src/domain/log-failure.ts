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
 * with `fields` (the error itself as `err` by default).
 */
export function logFailure(
  log: FailureLog,
  error: unknown,
  messages: { refused: string; failed: string },
  fields: object = { err: error },
): void {
  if (error instanceof ServiceUnavailableError) {
    log.warn(fields, `${messages.refused}: ${error.message}`)
  } else {
    log.error(fields, messages.failed)
  }
}
