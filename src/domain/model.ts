/**
 * The internal model of A2A: one set of types that every dialect translates to and from.
 * Dialect codecs (src/protocol/*) are the only places that know a wire shape.
 */
import { z } from 'zod'

export const TaskState = z.enum([
  'submitted',
  'working',
  'input-required',
  'auth-required',
  'completed',
  'failed',
  'canceled',
  'rejected',
])
export type TaskState = z.infer<typeof TaskState>

export const Role = z.enum(['user', 'agent'])
export type Role = z.infer<typeof Role>

export const Metadata = z.record(z.string(), z.unknown())
export type Metadata = z.infer<typeof Metadata>

export const TextPart = z.object({
  kind: z.literal('text'),
  text: z.string(),
  metadata: Metadata.optional(),
})

export const DataPart = z.object({
  kind: z.literal('data'),
  data: z.record(z.string(), z.unknown()),
  metadata: Metadata.optional(),
})

/** A file travels inline (base64 `bytes`) or by reference (`uri`), never both. */
export const FileContent = z
  .object({
    bytes: z.string().optional(),
    uri: z.string().optional(),
    name: z.string().optional(),
    mimeType: z.string().optional(),
  })
  .refine((file) => (file.bytes === undefined) !== (file.uri === undefined), {
    message: 'a file has exactly one of bytes or uri',
  })
export type FileContent = z.infer<typeof FileContent>

export const FilePart = z.object({
  kind: z.literal('file'),
  file: FileContent,
  metadata: Metadata.optional(),
})

export const Part = z.discriminatedUnion('kind', [TextPart, DataPart, FilePart])
export type Part = z.infer<typeof Part>
export type TextPart = z.infer<typeof TextPart>
export type DataPart = z.infer<typeof DataPart>
export type FilePart = z.infer<typeof FilePart>

export const Message = z.object({
  messageId: z.string(),
  role: Role,
  parts: z.array(Part),
  metadata: Metadata.optional(),
  referenceTaskIds: z.array(z.string()).optional(),
})
export type Message = z.infer<typeof Message>

export const TaskStatus = z.object({
  state: TaskState,
  /** RFC 3339 UTC, millisecond precision. */
  timestamp: z.string(),
  message: Message.optional(),
  /**
   * The skill answered with `message` alone, as a direct reply rather than as the outcome of a
   * task: dialects that can (A2A 0.2+) answer a send with the message instead of the task.
   */
  directReply: z.literal(true).optional(),
})
export type TaskStatus = z.infer<typeof TaskStatus>

export const Artifact = z.object({
  artifactId: z.string(),
  name: z.string().optional(),
  description: z.string().optional(),
  parts: z.array(Part),
  metadata: Metadata.optional(),
})
export type Artifact = z.infer<typeof Artifact>

export const Task = z.object({
  id: z.string(),
  contextId: z.string(),
  /** The skill that runs this task, fixed when the task is created. */
  skillId: z.string(),
  status: TaskStatus,
  /** Every message of the conversation, user and agent, oldest first. */
  history: z.array(Message),
  artifacts: z.array(Artifact),
  /** Every status the task has been in, oldest first (the card's `stateTransitionHistory`). */
  transitions: z.array(TaskStatus),
  metadata: Metadata.optional(),
  /** Fingerprint of the request that created the task; a retry with the same id must match it. */
  requestHash: z.string(),
  createdAt: z.string(),
  /** When the task last changed; lists are ordered by it, newest first. */
  updatedAt: z.string(),
  /** The caller that created the task (the token's subject); absent on an open server. */
  owner: z.string().optional(),
  /** The creating caller's tenant (also part of `owner`), for operators and the audit log. */
  tenant: z.string().optional(),
})
export type Task = z.infer<typeof Task>

let lastMs = Number.NaN
let lastText = ''

/**
 * The time now, RFC 3339 in UTC with milliseconds. A busy server makes several timestamps in the
 * same millisecond (a turn's working, artifact and completed; their audit records): the text is
 * made once per millisecond.
 */
export function now(): string {
  const ms = Date.now()
  if (ms !== lastMs) {
    lastMs = ms
    lastText = new Date(ms).toISOString()
  }
  return lastText
}
