/**
 * The verified caller of a request (set by the auth plugin) and what it means for tasks: the
 * owner key new tasks get, and whose tasks the caller may see (its own; every task for
 * `a2a:admin`). Another caller's task is "not found", exactly like a missing one.
 */
import type { FastifyRequest } from 'fastify'
import type { Caller } from '../../domain/caller.js'
import { isAdmin, ownerKey } from '../../domain/caller.js'
import type { WriteOrigin } from '../../store/task-store.js'

export const callerOf = (request: FastifyRequest): Caller | undefined => request.caller ?? undefined

/** The request a task write comes from, as the audit trail names it. */
export const originOf = (request: FastifyRequest): WriteOrigin => ({ requestId: request.id })

/**
 * The fields of a send that say who creates the task and what the caller may use, and the
 * request it comes from.
 */
export function creatorOf(request: FastifyRequest): {
  owner?: string
  tenant?: string
  scopes?: readonly string[]
  requestId: string
} {
  const caller = callerOf(request)
  if (caller === undefined) return { requestId: request.id }
  return {
    owner: ownerKey(caller),
    ...(caller.tenant !== undefined && { tenant: caller.tenant }),
    scopes: caller.scopes,
    requestId: request.id,
  }
}

/** The owner key reads are scoped to; undefined (every task) for an admin or an open server. */
export const viewerOf = (caller: Caller | undefined): string | undefined =>
  caller === undefined || isAdmin(caller.scopes) ? undefined : ownerKey(caller)
