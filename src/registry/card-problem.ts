/**
 * Why a card could not be used, in the registry's words: what kind of problem (the agent is
 * unreachable, the card is not JSON, a field is wrong, …) and, for a wrong shape, which field.
 */
import { A2ATimeoutError, AgentCardError, AgentUnreachableError } from '../client/errors.js'
import { AgentCardRejectedError } from '../domain/errors.js'

export interface CardProblem {
  problem: string
  reason: string
  field?: string
}

/** The problem behind a failed card read; undefined for an error that is not about the card. */
export function cardProblemOf(error: unknown): CardProblem | undefined {
  if (error instanceof AgentCardError) {
    return {
      problem: error.problem,
      reason: error.reason,
      ...(error.field !== undefined && { field: error.field }),
    }
  }
  if (error instanceof A2ATimeoutError) return { problem: 'timeout', reason: error.message }
  if (error instanceof AgentUnreachableError) {
    return { problem: 'unreachable', reason: error.message }
  }
  return undefined
}

export function rejection(url: string, error: unknown): AgentCardRejectedError | undefined {
  const found = cardProblemOf(error)
  return found && new AgentCardRejectedError(url, found.problem, found.reason, found.field)
}

/**
 * Reads a card, and once more if the connection failed: a pooled keep-alive connection to an
 * agent that restarted is dead, and only the next request finds out. A card read is idempotent.
 */
export async function readCardTwice<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read()
  } catch (error) {
    if (!(error instanceof AgentUnreachableError)) throw error
    return read()
  }
}
