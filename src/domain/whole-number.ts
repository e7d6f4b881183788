/**
 * Whole numbers read from a request or the environment: history lengths, page sizes, ports,
 * limits. Each way one can be wrong has its own message, the same in every dialect and in the
 * configuration: "must be a number", "must be a whole number", "must be 0 or more", "must be
 * from 1 to 100".
 */
import { z } from 'zod'

/** "must be a number" for a value of another type; the range checks keep their own messages. */
const notANumber = (issue: { code?: string; expected?: unknown }): string | undefined =>
  issue.code === 'invalid_type' && issue.expected === 'number' ? 'must be a number' : undefined

/** A whole number from `min` to `max` (no upper bound when absent) in a JSON body. */
export const wholeNumber = (min: number, max?: number) =>
  bounded(z.number({ error: notANumber }), min, max)

/** Decimal notation, as a person writes a count: "5", " 12 ", "1.5" (which is then not whole). */
const DECIMAL = /^\s*[+-]?(\d+\.?\d*|\.\d+)\s*$/

/** A string in decimal notation as its number; anything else is left for the check to refuse. */
const fromDecimalText = (value: unknown): unknown =>
  typeof value === 'string' && DECIMAL.test(value) ? Number(value) : value

/**
 * The same, also read from text: a query string, an environment variable, or a body field that
 * the brief's dialect takes as a number or as its digits. Only decimal notation counts: an empty
 * value, `0x10`, `true`, `null` or `[7]` is not a number.
 */
export const wholeNumberFromText = (min: number, max?: number) =>
  z.preprocess(fromDecimalText, wholeNumber(min, max))

function bounded<N extends z.ZodNumber>(number: N, min: number, max: number | undefined) {
  const range = max === undefined ? `must be ${min} or more` : `must be from ${min} to ${max}`
  // Not a whole number: the range is not checked, so the message says one thing. A whole number
  // past what a double holds exactly (1e20) is out of range, not "not whole".
  const atLeast = number
    .refine(Number.isInteger, { error: 'must be a whole number', abort: true })
    .min(min, range)
  return max === undefined
    ? atLeast.max(Number.MAX_SAFE_INTEGER, `must be at most ${Number.MAX_SAFE_INTEGER}`)
    : atLeast.max(max, range)
}
