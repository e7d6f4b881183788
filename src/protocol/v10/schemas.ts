/**
 * A2A 1.0 requests (ProtoJSON: camelCase names, SCREAMING_SNAKE enums, flat parts) as zod
 * schemas. The same schemas read JSON-RPC `params` and HTTP+JSON bodies; REST query strings
 * are typed by their own schemas below.
 */
import { z } from 'zod'
import { Metadata } from '../../domain/model.js'
import { wholeNumber, wholeNumberFromText } from '../../domain/whole-number.js'
import { ContextId, FileUrl, OptionalId, RequiredString, requiredAs } from '../a2a/fields.js'
import { singleValued } from '../a2a/query.js'

const HistoryLength = wholeNumber(0)

export const V10TaskState = z.enum([
  'TASK_STATE_UNSPECIFIED',
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_AUTH_REQUIRED',
])
export type V10TaskState = z.infer<typeof V10TaskState>

export const V10Part = z
  .object({
    text: z.string().optional(),
    raw: z.base64('must be base64').optional(),
    url: FileUrl.optional(),
    data: z.unknown().optional(),
    filename: z.string().optional(),
    mediaType: z.string().optional(),
    metadata: Metadata.optional(),
  })
  .refine(
    (part) =>
      [part.text, part.raw, part.url, part.data].filter((value) => value !== undefined).length ===
      1,
    { message: 'a part has exactly one of text, raw, url or data' },
  )
export type V10Part = z.infer<typeof V10Part>

export const V10Message = z.object({
  messageId: RequiredString,
  contextId: ContextId,
  taskId: OptionalId,
  // The engine runs skills on the caller's messages; a caller speaks as the user.
  role: z.literal('ROLE_USER', { error: 'a caller sends messages with role ROLE_USER' }),
  parts: z
    .array(V10Part, { error: requiredAs('must be an array') })
    .min(1, 'a message needs at least one part'),
  metadata: Metadata.optional(),
  extensions: z.array(z.string()).optional(),
  referenceTaskIds: z.array(z.string()).optional(),
})
export type V10Message = z.infer<typeof V10Message>

const Tenant = z.string().optional()

export const SendMessageRequest = z.object({
  tenant: Tenant,
  message: V10Message,
  configuration: z
    .object({
      acceptedOutputModes: z.array(z.string()).optional(),
      taskPushNotificationConfig: z.unknown().optional(),
      historyLength: HistoryLength.optional(),
      returnImmediately: z.boolean().optional(),
    })
    .optional(),
  metadata: Metadata.optional(),
})
export type SendMessageRequest = z.infer<typeof SendMessageRequest>

const TaskId = RequiredString

export const GetTaskRequest = z.object({
  tenant: Tenant,
  id: TaskId,
  historyLength: HistoryLength.optional(),
})

export const TaskIdRequest = z.object({ tenant: Tenant, id: TaskId, metadata: Metadata.optional() })

/** RFC 3339, normalized to the store's form (UTC, milliseconds) so that it compares as text. */
const Timestamp = z.iso
  .datetime({ offset: true, error: 'must be an RFC 3339 timestamp' })
  .transform((value) => new Date(value).toISOString())

export const ListTasksRequest = z.object({
  tenant: Tenant,
  contextId: ContextId,
  status: V10TaskState.optional(),
  pageSize: wholeNumber(1, 100).optional(),
  pageToken: OptionalId,
  historyLength: HistoryLength.optional(),
  statusTimestampAfter: Timestamp.optional(),
  includeArtifacts: z.boolean().optional(),
})
export type ListTasksRequest = z.infer<typeof ListTasksRequest>

/** Query strings carry text: numbers and booleans are read from it first. */
const QueryBool = z.enum(['true', 'false']).transform((value) => value === 'true')

export const ListTasksQuery = singleValued(
  ListTasksRequest.extend({
    pageSize: wholeNumberFromText(1, 100).optional(),
    historyLength: wholeNumberFromText(0).optional(),
    includeArtifacts: QueryBool.optional(),
  }),
)

export const GetTaskQuery = singleValued(
  z.object({ historyLength: wholeNumberFromText(0).optional() }),
)
