/**
 * The brief's replies (tasks, SSE frames) as zod schemas, and their reading into the client's
 * model. The seed dialect names neither messages nor artifacts: the client gives them ids that
 * stay the same from one reply to the next (artifact by position, message by place and time).
 */
import { z } from 'zod'
import type { Artifact, Message, Part } from '../../domain/model.js'
import { Metadata, TaskState } from '../../domain/model.js'
import { SeedPart } from '../../protocol/seed/schemas.js'
import type { RemoteTask } from '../model.js'

const SeedReplyMessage = z.object({
  role: z.enum(['user', 'agent']),
  parts: z.array(SeedPart),
  metadata: Metadata.optional(),
})

const SeedStatus = z.object({
  state: TaskState,
  timestamp: z.string(),
  message: SeedReplyMessage.optional(),
})

const SeedArtifact = z.object({
  name: z.string().optional(),
  description: z.string().optional(),
  parts: z.array(SeedPart),
  index: z.number().optional(),
  metadata: Metadata.optional(),
})

export const SeedTaskReply = z.object({
  id: z.string(),
  sessionId: z.string().optional(),
  status: SeedStatus,
  artifacts: z.array(SeedArtifact).optional(),
  history: z.array(SeedReplyMessage).optional(),
  metadata: Metadata.optional(),
  final: z.boolean().optional(),
})
export type SeedTaskReply = z.infer<typeof SeedTaskReply>

const partFromSeed = ({ type, ...rest }: SeedPart): Part => ({ kind: type, ...rest }) as Part

const messageFromSeed = (
  message: z.infer<typeof SeedReplyMessage>,
  messageId: string,
): Message => ({
  messageId,
  role: message.role,
  parts: message.parts.map(partFromSeed),
  ...(message.metadata && { metadata: message.metadata }),
})

const artifactFromSeed = (artifact: z.infer<typeof SeedArtifact>, position: number): Artifact => ({
  artifactId: `artifact-${artifact.index ?? position}`,
  ...(artifact.name !== undefined && { name: artifact.name }),
  ...(artifact.description !== undefined && { description: artifact.description }),
  parts: artifact.parts.map(partFromSeed),
  ...(artifact.metadata && { metadata: artifact.metadata }),
})

export function taskFromSeed(task: SeedTaskReply): RemoteTask {
  const { status } = task
  return {
    kind: 'task',
    id: task.id,
    contextId: task.sessionId ?? task.id,
    status: {
      state: status.state,
      timestamp: status.timestamp,
      ...(status.message && {
        message: messageFromSeed(status.message, `status-${status.timestamp}`),
      }),
    },
    artifacts: (task.artifacts ?? []).map(artifactFromSeed),
    history: (task.history ?? []).map((message, i) => messageFromSeed(message, `history-${i}`)),
    ...(task.metadata && { metadata: task.metadata }),
  }
}
