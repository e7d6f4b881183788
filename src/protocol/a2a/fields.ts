/**
 * Request fields that A2A 0.3 and 1.0 read alike (JSON-RPC params and HTTP+JSON bodies), and the
 * counts (history lengths, page sizes) that every dialect reads, the brief's too.
 */
import { z } from 'zod'

/** A field's type error: "is required" when it is absent, `wrongType` when it is something else. */
export const requiredAs =
  (wrongType: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined ? 'is required' : wrongType

/** A string the request must carry, not empty. */
export const RequiredString = z
  .string({ error: requiredAs('must be a string') })
  .min(1, 'is required')

/** An unset string is left out or sent empty (ProtoJSON does both): both mean "not given". */
export const OptionalId = z
  .string({ error: 'must be a string' })
  .optional()
  .transform((value) => (value === '' ? undefined : value))

/** A client may name a context; its id is stored and indexed, so it is kept short. */
export const ContextId = z
  .string({ error: 'must be a string' })
  .max(256, 'must be at most 256 characters')
  .optional()
  .transform((value) => (value === '' ? undefined : value))

/** "must be a number" for a value of another type; the range checks keep their own messages. */
const notANumber = (issue: { code?: string; expected?: unknown }): string | undefined =>
  issue.code === 'invalid_type' && issue.expected === 'number' ? 'must be a number' : undefined

/** A whole number from `min` to `max` (no upper bound when absent) in a JSON body. */
export const wholeNumber = (min: number, max?: number) =>
  bounded(z.number({ error: notANumber }), min, max)

/** The same, read from the text of a query string (or a lenient body field). */
export const wholeNumberFromText = (min: number, max?: number) =>
  bounded(z.coerce.number({ error: notANumber }), min, max)

function bounded<N extends z.ZodNumber | z.ZodCoercedNumber>(
  number: N,
  min: number,
  max: number | undefined,
) {
  const range = max === undefined ? `must be ${min} or more` : `must be from ${min} to ${max}`
  const atLeast = number.int('must be a whole number').min(min, range)
  return max === undefined ? atLeast : atLeast.max(max, range)
}
