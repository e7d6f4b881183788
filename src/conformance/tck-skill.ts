/**
 * The conformance agent's one skill: the behaviours the official A2A TCK (a2aproject/a2a-tck,
 * `scenarios/*.feature`) expects, chosen by the prefix of the latest user message's messageId.
 * Longer prefixes are listed first, so `tck-artifact-file-url` is not taken for `tck-artifact-file`.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { Part } from '../domain/model.js'
import { dataPart, textPart } from '../domain/parts.js'
import type { SkillContext, SkillOutcome } from '../skills/skill.js'
import { defineSkill } from '../skills/skill.js'

const filePart = (): Part => ({
  kind: 'file',
  file: {
    name: 'output.txt',
    mimeType: 'text/plain',
    bytes: Buffer.from('Generated file content').toString('base64'),
  },
})

const fileUrlPart = (): Part => ({
  kind: 'file',
  file: { name: 'output.txt', mimeType: 'text/plain', uri: 'https://example.com/output.txt' },
})

/** working → one artifact → completed, the shape of every streaming scenario. */
const streamed =
  (parts: () => Part[]) =>
  async (ctx: SkillContext): Promise<SkillOutcome> => {
    await ctx.progress('Working on it')
    await ctx.emitArtifact({ name: 'result', parts: parts() })
    return ctx.complete()
  }

const withArtifact =
  (parts: () => Part[]) =>
  async (ctx: SkillContext): Promise<SkillOutcome> => {
    await ctx.emitArtifact({ name: 'result', parts: parts() })
    return ctx.complete()
  }

type Behaviour = (ctx: SkillContext) => Promise<SkillOutcome>

/** How long the resubscription scenario keeps its task working ("2x streaming timeout"). */
export const RESUBSCRIBE_WORK_MS = 2_000

const BEHAVIOURS: [prefix: string, behaviour: Behaviour][] = [
  ['tck-complete-task', async (ctx) => ctx.complete('Hello from TCK')],
  ['tck-artifact-text', withArtifact(() => [textPart('Generated text content')])],
  ['tck-artifact-file-url', withArtifact(() => [fileUrlPart()])],
  ['tck-artifact-file', withArtifact(() => [filePart()])],
  ['tck-artifact-data', withArtifact(() => [dataPart({ key: 'value', count: 42 })])],
  [
    'tck-message-response',
    async () => ({ state: 'message', message: [textPart('Direct message response')] }),
  ],
  ['tck-input-required', async (ctx) => ctx.requestInput('Please send more input (same taskId)')],
  ['tck-reject-task', async (ctx) => ctx.reject('rejected')],
  ['tck-stream-001', streamed(() => [textPart('Stream hello from TCK')])],
  ['tck-stream-002', async (ctx) => ctx.complete()],
  ['tck-stream-003', streamed(() => [textPart('Stream task lifecycle')])],
  ['tck-stream-ordering-001', streamed(() => [textPart('Ordered output')])],
  ['tck-stream-artifact-text', streamed(() => [textPart('Streamed text content')])],
  ['tck-stream-artifact-file', streamed(() => [filePart()])],
  [
    'tck-stream-artifact-chunked',
    async (ctx) => {
      await ctx.progress('Working on it')
      const artifactId = await ctx.emitArtifact({ name: 'result', parts: [textPart('chunk-1 ')] })
      await ctx.emitArtifact(
        { artifactId, name: 'result', parts: [textPart('chunk-2')] },
        { append: true, lastChunk: true },
      )
      return ctx.complete()
    },
  ],
  [
    'test-resubscribe-message-id',
    async (ctx) => {
      await ctx.progress('Working on it')
      await sleep(RESUBSCRIBE_WORK_MS, undefined, { signal: ctx.signal }).catch(() => undefined)
      return ctx.complete()
    },
  ],
]

export const tckSkill = defineSkill({
  id: 'tck-conformance',
  name: 'TCK conformance scenarios',
  description:
    'Behaves as the A2A TCK scenarios expect, keyed by the messageId prefix (tck-complete-task, tck-input-required, …)',
  tags: ['conformance', 'testing'],
  examples: ['messageId "tck-complete-task-…" completes the task with "Hello from TCK"'],
  // Any media type: the TCK's CORE-SEND-003 sends an unknown one and expects a reply (see
  // docs/protocol.md); a skill that names its input modes gets ContentTypeNotSupported instead.
  inputModes: ['*/*'],
  outputModes: ['text/plain', 'application/json'],
  async execute(ctx) {
    const { messageId } = ctx.message
    const behaviour = BEHAVIOURS.find(([prefix]) => messageId.startsWith(prefix))?.[1]
    if (behaviour) return behaviour(ctx)
    return ctx.complete(ctx.input.text)
  },
})

export default tckSkill
