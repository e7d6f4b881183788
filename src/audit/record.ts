/**
 * The audit record: one per security-relevant event, chained by hash. `prev` is the hash of the
 * record before it in the same trail and `hash` covers every other field (see hash.ts), so an
 * edited, deleted or reordered record breaks the chain where it happened (see verify.ts).
 *
 * A record names who (caller, tenant), what (event, taskId, skillId, outcome) and which request
 * (requestId); `details` holds a few safe, event-specific facts. Never message contents, tokens
 * or headers: the code that builds entries (task-records.ts, http/plugins/audit.ts) copies
 * each field by name, never a caller's object, and the schemas are strict, so the verifier
 * rejects a record carrying any field not named here.
 */
import { z } from 'zod'
import { TaskState } from '../domain/model.js'

/** The events the trail records. */
export const AuditEvent = {
  taskReceived: 'task-received',
  stateChange: 'state-change',
  artifactDelivered: 'artifact-delivered',
  authFailure: 'auth-failure',
  permissionDenial: 'permission-denial',
  rateLimitHit: 'rate-limit-hit',
  registryChange: 'registry-change',
  recordsDropped: 'records-dropped',
  trailLost: 'trail-lost',
} as const
export type AuditEventName = (typeof AuditEvent)[keyof typeof AuditEvent]

/** The hash before the first record of a trail. */
export const GENESIS = '0'.repeat(64)

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 in lowercase hex')
const short = z.string().max(256)

/** Where a request-level event happened: the method and the route (never the query string). */
/** The request: its method and route, and its address when it named no known caller. */
const RequestDetails = z.strictObject({
  method: short,
  route: z.string().max(512),
  client: short.optional(),
})

const common = {
  /** The record format; a future change of the hashed fields gets a new number. */
  audit: z.literal(1),
  /** Position in the trail: 1 for the first record, +1 for each next one. */
  seq: z.number().int().positive(),
  /** RFC 3339 UTC, millisecond precision, stamped when the event happened. */
  time: z.string().max(64),
  caller: short.optional(),
  tenant: short.optional(),
  taskId: short.optional(),
  skillId: short.optional(),
  requestId: short.optional(),
  prev: sha256Hex,
  hash: sha256Hex,
}

const TaskReceived = z.strictObject({
  ...common,
  event: z.literal(AuditEvent.taskReceived),
  outcome: z.literal('received'),
  details: z.strictObject({ contextId: short, parts: z.number().int().nonnegative() }),
})

const StateChange = z.strictObject({
  ...common,
  event: z.literal(AuditEvent.stateChange),
  /** The state the task moved to. */
  outcome: TaskState,
  details: z.strictObject({ final: z.boolean() }),
})

const ArtifactDelivered = z.strictObject({
  ...common,
  event: z.literal(AuditEvent.artifactDelivered),
  outcome: z.literal('delivered'),
  details: z.strictObject({
    artifactId: short,
    parts: z.number().int().nonnegative(),
    append: z.boolean(),
    lastChunk: z.boolean(),
  }),
})

const AuthFailure = z.strictObject({
  ...common,
  event: z.literal(AuditEvent.authFailure),
  outcome: z.literal('rejected'),
  /** Why the credentials were refused, as a short code (`missing`, `expired`, `bad-signature`…). */
  details: RequestDetails.extend({ reason: short }),
})

const PermissionDenial = z.strictObject({
  ...common,
  event: z.literal(AuditEvent.permissionDenial),
  outcome: z.literal('denied'),
  /** The scopes the operation needed (never the token's own). */
  details: RequestDetails.extend({ required: z.array(short).max(32) }),
})

const RateLimitHit = z.strictObject({
  ...common,
  event: z.literal(AuditEvent.rateLimitHit),
  outcome: z.literal('limited'),
  /** Which limit (`requests`, `active-tasks`…), its maximum, and its window when it has one. */
  details: RequestDetails.extend({
    limit: short,
    max: z.number().int().nonnegative(),
    windowMs: z.number().int().nonnegative().optional(),
  }),
})

/**
 * An operator changed the agent registry: registered an agent (or registered its URL again,
 * which refreshes its entry from its card), or removed one. The orchestrator delegates to the
 * agents registered, so who added which URL is on the trail.
 */
const RegistryChange = z.strictObject({
  ...common,
  event: z.literal(AuditEvent.registryChange),
  outcome: z.enum(['registered', 'refreshed', 'removed']),
  /** The agent's id, and the URL it is registered under (without a password) when known. */
  details: RequestDetails.extend({ agentId: short, url: z.string().max(2048).optional() }),
})

/**
 * The trail lost records here: its queue was full (the sink was failing or slow), and `count`
 * entries made since the record before this one were dropped. Written by the trail itself, as
 * soon as the queue has room again, so that the chain shows the gap.
 */
const RecordsDropped = z.strictObject({
  ...common,
  event: z.literal(AuditEvent.recordsDropped),
  outcome: z.literal('dropped'),
  details: z.strictObject({ count: z.number().int().positive() }),
})

/**
 * The trail before this record is lost: the Redis trail went back behind the last record this
 * process had written (`seq`, `hash`), so its records were deleted, or Redis lost its data (a
 * restart without persistence). Written by the Redis sink as the first record after the loss,
 * so that a trail which starts again says so.
 */
const TrailLost = z.strictObject({
  ...common,
  event: z.literal(AuditEvent.trailLost),
  outcome: z.literal('lost'),
  details: z.strictObject({ hash: sha256Hex, seq: z.number().int().positive() }),
})

export const AuditRecord = z.discriminatedUnion('event', [
  TaskReceived,
  StateChange,
  ArtifactDelivered,
  AuthFailure,
  PermissionDenial,
  RateLimitHit,
  RegistryChange,
  RecordsDropped,
  TrailLost,
])
export type AuditRecord = z.infer<typeof AuditRecord>

type Unchained<R> = R extends unknown ? Omit<R, 'audit' | 'seq' | 'prev' | 'hash'> : never
/** What a caller hands the trail: a record before it takes its place in the chain. */
export type AuditEntry = Unchained<AuditRecord>

/** The last record of a trail, as the next record needs it. */
export interface ChainHead {
  seq: number
  hash: string
}

export const EMPTY_HEAD: ChainHead = { seq: 0, hash: GENESIS }
