/**
 * The audit trail on the app: `app.audit` (the trail), and one small function per request-level
 * event for the authentication and rate-limit plugins to call. Shutdown flushes the trail. Task
 * events are recorded by the audited store, with the request id the routes hand the engine
 * (`originOf` in a2a/caller.ts).
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { AuditEvent } from '../../audit/record.js'
import type { AuditTrail } from '../../audit/trail.js'
import { CapReachedError } from '../../domain/errors.js'
import { now } from '../../domain/model.js'
import { ownerKey } from '../../domain/caller.js'
import { withoutPassword } from '../../domain/url-password.js'
import { callerOf } from '../a2a/caller.js'

export { AuditEvent }

export interface AuditPluginOptions {
  trail: AuditTrail
  /** How long shutdown waits for queued records to reach the sink. */
  flushTimeoutMs: number
}

declare module 'fastify' {
  interface FastifyInstance {
    audit: AuditTrail
  }
}

const audit: FastifyPluginAsync<AuditPluginOptions> = async (app, { trail, flushTimeoutMs }) => {
  app.decorate('audit', trail)
  // The per-caller caps on open tasks and open streams are limits too, enforced elsewhere.
  app.addHook('onError', async (request, _reply, error) => {
    if (error instanceof CapReachedError) {
      auditRateLimitHit(request, { limit: error.cap, max: error.limit })
    }
  })
  // After the engine's preClose has drained running turns, whose changes are audited.
  app.addHook('onClose', async () => trail.close(flushTimeoutMs))
}

export default fp(audit, { name: 'a2a-audit', fastify: '5.x' })

/** Credentials were missing or refused (401). `reason`: a short code, never the token. */
export function auditAuthFailure(request: FastifyRequest, reason: string): void {
  request.server.audit.record({
    ...requestFields(request),
    event: AuditEvent.authFailure,
    outcome: 'rejected',
    details: { ...where(request), reason },
  })
}

/** A known caller lacked a permission (403): the scopes the operation needed. */
export function auditPermissionDenial(
  request: FastifyRequest,
  denial: { required: string[]; skillId?: string; taskId?: string },
): void {
  request.server.audit.record({
    ...requestFields(request),
    ...(denial.skillId !== undefined && { skillId: denial.skillId }),
    ...(denial.taskId !== undefined && { taskId: denial.taskId }),
    event: AuditEvent.permissionDenial,
    outcome: 'denied',
    details: { ...where(request), required: denial.required },
  })
}

/** A limit refused the request (429): which limit, its maximum and window. */
export function auditRateLimitHit(
  request: FastifyRequest,
  hit: { limit: string; max: number; windowMs?: number },
): void {
  request.server.audit.record({
    ...requestFields(request),
    event: AuditEvent.rateLimitHit,
    outcome: 'limited',
    details: {
      ...where(request),
      limit: hit.limit,
      max: hit.max,
      ...(hit.windowMs !== undefined && { windowMs: hit.windowMs }),
    },
  })
}

/** The registry changed: an agent registered, refreshed from its card, or removed. */
export function auditRegistryChange(
  request: FastifyRequest,
  change: { outcome: 'registered' | 'refreshed' | 'removed'; agentId: string; url?: string },
): void {
  request.server.audit.record({
    ...requestFields(request),
    event: AuditEvent.registryChange,
    outcome: change.outcome,
    details: {
      ...where(request),
      agentId: change.agentId,
      ...(change.url !== undefined && { url: withoutPassword(change.url).slice(0, 2048) }),
    },
  })
}

/** The request's id, its caller (set by authentication) and the caller's tenant, if any. */
function requestFields(request: FastifyRequest) {
  const caller = callerOf(request)
  return {
    time: now(),
    requestId: request.id,
    // The owner key tasks carry (tenant/subject), so request and task records name callers alike.
    caller: caller && ownerKey(caller),
    tenant: caller?.tenant,
  }
}

/**
 * The method and the route pattern as the routes are documented (`/a2a/rest/message:send`, not
 * the router's `message::send`); `(no route)` for a path no route serves, whose text is the
 * caller's (never the URL: it may carry a token or a query).
 */
function where(request: FastifyRequest) {
  const pattern = request.routeOptions.url
  const route = pattern === undefined ? NO_ROUTE : pattern.replaceAll('::', ':')
  // A request without a known caller is told by its address (TRUST_PROXY decides which).
  const anonymous = callerOf(request) === undefined
  return {
    method: request.method,
    route: route.slice(0, 512),
    ...(anonymous && { client: request.ip.slice(0, 64) }),
  }
}

const NO_ROUTE = '(no route)'
