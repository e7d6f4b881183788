/** Reading an agent's reply against a schema: a reply that does not fit is the agent's fault. */
import type { z } from 'zod'
import { issueList, plainly } from '../domain/issue-messages.js'
import { InvalidAgentResponseError } from './errors.js'

export function decode<S extends z.ZodType, T>(
  schema: S,
  value: unknown,
  what: string,
  read: (parsed: z.infer<S>) => T,
): T {
  const result = schema.safeParse(value, plainly)
  if (!result.success) {
    const problem = issueList(result.error, '(root)', 3)
    throw new InvalidAgentResponseError(
      `${what} does not fit the dialect: ${problem}`,
      preview(value),
    )
  }
  try {
    return read(result.data)
  } catch (error) {
    throw new InvalidAgentResponseError(
      `${what} does not fit the dialect: ${error instanceof Error ? error.message : String(error)}`,
      preview(value),
    )
  }
}

export function parseJson(body: string, what: string): unknown {
  try {
    return JSON.parse(body)
  } catch {
    throw new InvalidAgentResponseError(`${what} is not JSON`, body.slice(0, 2_000))
  }
}

const preview = (value: unknown) => JSON.stringify(value)?.slice(0, 2_000)
