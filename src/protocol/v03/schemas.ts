/**
 * A2A 0.3 requests (JSON-RPC `params`) as zod schemas: parts and messages carry `kind`, roles
 * and states are lowercase, and task ids are the server's.
 */
import { z } from 'zod'
import { Metadata } from '../../domain/model.js'
import { wholeNumber } from '../../domain/whole-number.js'
import {
  Base64,
  ContextId,
  FileUrl,
  OptionalId,
  RequiredString,
  requiredAs,
} from '../a2a/fields.js'

const V03File = z
  .object({
    bytes: Base64.optional(),
    uri: FileUrl.optional(),
    name: z.string().optional(),
    mimeType: z.string().optional(),
  })
  .refine((file) => (file.bytes === undefined) !== (file.uri === undefined), {
    message: 'a file has exactly one of bytes or uri',
  })

export const V03Part = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('text'), text: z.string(), metadata: Metadata.optional() }),
    z.object({ kind: z.literal('file'), file: V03File, metadata: Metadata.optional() }),
    z.object({
      kind: z.literal('data'),
      data: z.record(z.string(), z.unknown()),
      metadata: Metadata.optional(),
    }),
  ],
  { error: 'a part has kind "text", "file" or "data"' },
)
export type V03Part = z.infer<typeof V03Part>

export const V03Message = z.object({
  kind: z.literal('message').optional(),
  messageId: RequiredString,
  contextId: ContextId,
  taskId: OptionalId,
  role: z.literal('user', { error: 'a caller sends messages with role "user"' }),
  parts: z
    .array(V03Part, { error: requiredAs('must be an array') })
    .min(1, 'a message needs at least one part'),
  metadata: Metadata.optional(),
  extensions: z.array(z.string()).optional(),
  referenceTaskIds: z.array(z.string()).optional(),
})
export type V03Message = z.infer<typeof V03Message>

export const MessageSendParams = z.object({
  message: V03Message,
  configuration: z
    .object({
      acceptedOutputModes: z.array(z.string()).optional(),
      historyLength: wholeNumber(0).optional(),
      pushNotificationConfig: z.unknown().optional(),
      blocking: z.boolean().optional(),
    })
    .optional(),
  metadata: Metadata.optional(),
})
export type MessageSendParams = z.infer<typeof MessageSendParams>

const TaskId = RequiredString

export const TaskQueryParams = z.object({
  id: TaskId,
  historyLength: wholeNumber(0).optional(),
  metadata: Metadata.optional(),
})

export const TaskIdParams = z.object({ id: TaskId, metadata: Metadata.optional() })
