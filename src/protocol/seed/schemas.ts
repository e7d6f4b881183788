/**
 * The brief's dialect (the 2025 draft, REST-shaped): request bodies as zod schemas. Parts carry
 * `type`, states are lowercase, and the client chooses the task id.
 */
import { z } from 'zod'
import { Metadata } from '../../domain/model.js'
import { wholeNumberFromText } from '../../domain/whole-number.js'
import { Base64, FileUrl } from '../a2a/fields.js'
import { singleValued } from '../a2a/query.js'

const SeedFile = z
  .object({
    name: z.string().optional(),
    mimeType: z.string().optional(),
    bytes: Base64.optional(),
    uri: FileUrl.optional(),
  })
  .refine((file) => (file.bytes === undefined) !== (file.uri === undefined), {
    message: 'a file has exactly one of bytes or uri',
  })

export const SeedPart = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('text'), text: z.string(), metadata: Metadata.optional() }),
    z.object({
      type: z.literal('data'),
      data: z.record(z.string(), z.unknown()),
      metadata: Metadata.optional(),
    }),
    z.object({ type: z.literal('file'), file: SeedFile, metadata: Metadata.optional() }),
  ],
  {
    // A part in A2A 0.3's shape ({kind: "text"}) is the likely slip: said so.
    error: (issue) =>
      typeof (issue.input as { kind?: unknown } | undefined)?.kind === 'string'
        ? 'a part has type "text", "data" or "file" (these endpoints name it "type"; "kind" is the A2A 0.3 name, used at /a2a/jsonrpc)'
        : 'a part has type "text", "data" or "file"',
  },
)
export type SeedPart = z.infer<typeof SeedPart>

export const SeedMessage = z.object({
  role: z.literal('user', { error: 'a caller sends messages with role "user"' }),
  parts: z.array(SeedPart).min(1, 'a message needs at least one part'),
  metadata: Metadata.optional(),
})
export type SeedMessage = z.infer<typeof SeedMessage>

const HistoryLength = wholeNumberFromText(0, 1000)

/**
 * A task id of the brief's dialect: a UUID, case-insensitive on input as RFC 9562 says, so
 * read in the lowercase it is written in (an upper-case retry is the same task).
 */
const TaskId = z.uuid('must be a UUID').transform((id) => id.toLowerCase())

export const SendTaskBody = z.object({
  id: TaskId,
  sessionId: z.string().min(1).max(256).optional(),
  message: SeedMessage,
  metadata: Metadata.optional(),
  historyLength: HistoryLength.optional(),
})
export type SendTaskBody = z.infer<typeof SendTaskBody>

export const ContinueTaskBody = z.object({
  /** Optional here; when present it must name the task in the path. */
  id: TaskId.optional(),
  message: SeedMessage,
  metadata: Metadata.optional(),
  historyLength: HistoryLength.optional(),
})
export type ContinueTaskBody = z.infer<typeof ContinueTaskBody>

export const TaskParams = z.object({ id: TaskId })

export const GetTaskQuery = singleValued(z.object({ historyLength: HistoryLength.optional() }))
