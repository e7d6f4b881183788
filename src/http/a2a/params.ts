/** Validates a dialect's request object (JSON-RPC params, REST body or query) with its schema. */
import type { z } from 'zod'
import { InvalidRequestError } from '../../domain/errors.js'
import { fromProtoNames } from '../../protocol/v10/proto-json.js'
import { bodyProblem, plainly } from '../../domain/issue-messages.js'

/** Parses `value`; the first problem is an InvalidRequestError naming the field by its path. */
export function parseParams<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value ?? {}, plainly)
  if (result.success) return result.data
  const issue = result.error.issues[0]!
  // JSON-RPC params are checked before (see routes/jsonrpc): what is left is a REST body.
  if (issue.path.length === 0 && issue.code === 'invalid_type') {
    throw new InvalidRequestError(bodyProblem(value))
  }
  const field = issue.path
    .map((key) => (typeof key === 'number' ? `[${key}]` : String(key)))
    .join('.')
    .replace(/\.\[/g, '[')
  throw new InvalidRequestError(issue.message, field || undefined)
}

/** parseParams for an A2A 1.0 request: proto field names (`history_length`) are accepted too. */
export const parseProtoJson = <S extends z.ZodType>(schema: S, value: unknown): z.output<S> =>
  parseParams(schema, fromProtoNames(value))
