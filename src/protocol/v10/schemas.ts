/**
 * A2A 1.0 requests (ProtoJSON: camelCase names, SCREAMING_SNAKE enums, flat parts) as zod
 * schemas, read as leniently as ProtoJSON parsers read them (proto-fields.ts). The same schemas
 * read JSON-RPC `params` and HTTP+JSON bodies; REST query strings have their own below.
 */
import { z } from 'zod'
import { Metadata } from '../../domain/model.js'
import {
  Base64,
  ContextId,
  FileUrl,
  OptionalId,
  RequiredString,
  requiredAs,
} from '../a2a/fields.js'
import { singleValued } from '../a2a/query.js'
import { enumName, protoEnum, protoInt32, protoMessage } from './proto-fields.js'

const HistoryLength = protoInt32(0)

/** a2a.proto's enums, by name and number. */
const TASK_STATE = {
  TASK_STATE_UNSPECIFIED: 0,
  TASK_STATE_SUBMITTED: 1,
  TASK_STATE_WORKING: 2,
  TASK_STATE_COMPLETED: 3,
  TASK_STATE_FAILED: 4,
  TASK_STATE_CANCELED: 5,
  TASK_STATE_INPUT_REQUIRED: 6,
  TASK_STATE_REJECTED: 7,
  TASK_STATE_AUTH_REQUIRED: 8,
} as const
const ROLE = { ROLE_UNSPECIFIED: 0, ROLE_USER: 1, ROLE_AGENT: 2 } as const

export const V10TaskState = protoEnum(TASK_STATE)
export type V10TaskState = z.infer<typeof V10TaskState>

export const V10Part = protoMessage(
  {
    text: z.string().optional(),
    raw: Base64.optional(),
    url: FileUrl.optional(),
    data: z.unknown().optional(),
    filename: z.string().optional(),
    mediaType: z.string().optional(),
    metadata: Metadata.optional(),
  },
  // `data` is a google.protobuf.Value: its null is the JSON null, which the codec refuses.
  { values: ['data'] },
).refine(
  (part) =>
    [part.text, part.raw, part.url, part.data].filter((value) => value !== undefined).length === 1,
  { message: 'a part has exactly one of text, raw, url or data' },
)
export type V10Part = z.infer<typeof V10Part>

export const V10Message = protoMessage({
  messageId: RequiredString,
  contextId: ContextId,
  taskId: OptionalId,
  // The engine runs skills on the caller's messages; a caller speaks as the user.
  role: z.preprocess(
    enumName(ROLE),
    z.literal('ROLE_USER', {
      // What came, too: a client library's own message object, handed over as JSON, sends its
      // role as something else again (@a2a-js/sdk: "UNRECOGNIZED").
      error: (issue) =>
        issue.input === undefined
          ? 'is required'
          : `a caller sends messages with role ROLE_USER (got ${JSON.stringify(issue.input)})`,
    }),
  ),
  parts: z
    .array(V10Part, { error: requiredAs('must be an array') })
    .min(1, 'a message needs at least one part'),
  metadata: Metadata.optional(),
  extensions: z.array(z.string()).optional(),
  referenceTaskIds: z.array(z.string()).optional(),
})
export type V10Message = z.infer<typeof V10Message>

const Tenant = z.string().optional()

export const SendMessageRequest = protoMessage({
  tenant: Tenant,
  message: V10Message,
  configuration: protoMessage({
    acceptedOutputModes: z.array(z.string()).optional(),
    taskPushNotificationConfig: z.unknown().optional(),
    historyLength: HistoryLength.optional(),
    returnImmediately: z.boolean().optional(),
  }).optional(),
  metadata: Metadata.optional(),
})
export type SendMessageRequest = z.infer<typeof SendMessageRequest>

const TaskId = RequiredString

export const GetTaskRequest = protoMessage({
  tenant: Tenant,
  id: TaskId,
  historyLength: HistoryLength.optional(),
})

export const TaskIdRequest = protoMessage({
  tenant: Tenant,
  id: TaskId,
  metadata: Metadata.optional(),
})

/** RFC 3339, normalized to the store's form (UTC, milliseconds) so that it compares as text. */
const Timestamp = z.iso
  .datetime({ offset: true, error: 'must be an RFC 3339 timestamp' })
  .transform((value) => new Date(value).toISOString())

const listTasksFields = {
  tenant: Tenant,
  contextId: ContextId,
  status: V10TaskState.optional(),
  pageSize: protoInt32(1, 100).optional(),
  pageToken: OptionalId,
  historyLength: HistoryLength.optional(),
  statusTimestampAfter: Timestamp.optional(),
  includeArtifacts: z.boolean().optional(),
}

export const ListTasksRequest = protoMessage(listTasksFields)
export type ListTasksRequest = z.infer<typeof ListTasksRequest>

/**
 * Query strings carry text. Enums and integers read it as a body's fields do (a name or a
 * number, decimal digits); a boolean is `true` or `false`.
 */
const QueryBool = z.enum(['true', 'false']).transform((value) => value === 'true')

export const ListTasksQuery = singleValued(
  z.object({ ...listTasksFields, includeArtifacts: QueryBool.optional() }),
)

export const GetTaskQuery = singleValued(z.object({ historyLength: HistoryLength.optional() }))
