/**
 * What a reader sees when a field is wrong, in plain words: a caller whose request we refuse (in
 * every dialect), and a user of our client whose agent answered with a card or a reply that does
 * not fit. "is required", "must be a string", "must be one of x, y", "must have at most 3
 * characters". A schema's own message, where it gives one, comes first; these replace zod's
 * defaults ("Invalid input: expected string, received number"), which name zod's types.
 */
import type { z } from 'zod'

const KINDS: Record<string, string> = {
  object: 'an object',
  record: 'an object',
  array: 'an array',
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
}

const UNITS: Record<string, string> = { string: 'characters', array: 'items' }

const FORMATS: Record<string, string> = { url: 'must be a URL', uuid: 'must be a UUID' }

/** A zod error map: undefined leaves zod's own message (for issues not listed here). */
export const issueMessage: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required'
      return KINDS[issue.expected] === undefined ? undefined : `must be ${KINDS[issue.expected]}`
    case 'invalid_value':
      return oneOf(issue.values)
    case 'too_small':
    case 'too_big': {
      const unit = UNITS[issue.origin]
      if (unit === undefined) return undefined
      if (issue.code === 'too_small' && Number(issue.minimum) === 1) return 'must not be empty'
      const bound = issue.code === 'too_small' ? issue.minimum : issue.maximum
      return `must have ${issue.code === 'too_small' ? 'at least' : 'at most'} ${bound} ${unit}`
    }
    case 'invalid_format':
      return FORMATS[issue.format]
    case 'invalid_union': {
      // A discriminated union's tag that names none of its options: say which ones there are.
      const { options } = issue as { options?: unknown[] }
      return options === undefined ? undefined : oneOf(options)
    }
    case 'unrecognized_keys':
      return `has unknown ${issue.keys.length === 1 ? 'field' : 'fields'} ${issue.keys.join(', ')}`
    default:
      return undefined
  }
}

const oneOf = (values: readonly unknown[]): string =>
  values.length === 1
    ? `must be ${JSON.stringify(values[0])}`
    : `must be one of ${values.map((value) => JSON.stringify(value)).join(', ')}`

/** The parse options that word every issue with `issueMessage`: `schema.safeParse(value, plainly)`. */
export const plainly = { error: issueMessage }

/**
 * A schema's complaints in one line, `field.path: message; …` (at most `max`), the value itself
 * named `whole` when the complaint is about all of it.
 */
export const issueList = (error: z.ZodError, whole: string, max = Infinity): string =>
  error.issues
    .slice(0, max)
    .map((issue) => `${issue.path.join('.') || whole}: ${issue.message}`)
    .join('; ')

/**
 * What is wrong with a request body that is not a JSON object at all. Fastify hands a request
 * without a body (and so without a Content-Type) to validation as null: it is empty. (A body of
 * just `null` is refused before, by the JSON parser: json-body.ts.)
 */
export const bodyProblem = (body: unknown): string =>
  body === undefined || body === null
    ? 'the request body is empty; send a JSON object'
    : 'the request body must be a JSON object'
