/**
 * The verified caller of a request (set by the auth plugin) and what it means for tasks: the
 * owner key new tasks get, and whose tasks the caller may see (its own; every task for
 * `a2a:admin`). Another caller's task is "not found", exactly like a missing one.
 */
import type { FastifyRequest } from 'fastify'
import type { Caller } from '../../domain/caller.js'
import { isAdmin, ownerKey } from '../../domain/caller.js'

export const callerOf = (request: FastifyRequest): Caller | undefined => request.caller ?? undefined

/** The fields of a send that say who creates the task and what the caller may use. */
export function creatorOf(caller: Caller | undefined): {
  owner?: string
  tenant?: string
  scopes?: readonly string[]
} {
  if (caller === undefined) return {}
  return {
    owner: ownerKey(caller),
    ...(caller.tenant !== undefined && { tenant: caller.tenant }),
    scopes: caller.scopes,
  }
}

/** The owner key reads are scoped to; undefined (every task) for an admin or an open server. */
export const viewerOf = (caller: Caller | undefined): string | undefined =>
  caller === undefined || isAdmin(caller.scopes) ? undefined : ownerKey(caller)
