/** Skills with controllable behaviour, for engine and HTTP tests. */
import type { Skill } from '../../src/skills/skill.js'
import { defineSkill } from '../../src/skills/skill.js'
import { textPart } from '../../src/domain/parts.js'

const base = { tags: ['test'], description: 'a test skill' }

/** Waits until aborted, or `ms` if given, reporting progress first. */
export const slowSkill = (ms = 60_000): Skill =>
  defineSkill({
    ...base,
    id: 'slow',
    name: 'Slow',
    async execute(ctx) {
      await ctx.progress('started')
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms)
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(timer)
          resolve()
        })
      })
      return ctx.complete('slow done')
    },
  })

/** Rejects every task, saying why. */
export const rejectSkill = defineSkill({
  ...base,
  id: 'reject',
  name: 'Reject',
  execute: async (ctx) => ctx.reject('This agent does not take such requests'),
})

/** Asks a question first; completes with the answer on the next turn. */
export const askSkill = defineSkill({
  ...base,
  id: 'ask',
  name: 'Ask',
  async execute(ctx) {
    if (ctx.history.filter((m) => m.role === 'user').length < 2)
      return ctx.requestInput('Which colour?')
    await ctx.emitArtifact({ name: 'answer', parts: [textPart(`colour: ${ctx.input.text}`)] })
    return ctx.complete()
  },
})

/** Streams an artifact in three chunks. */
export const chunkSkill = defineSkill({
  ...base,
  id: 'chunks',
  name: 'Chunks',
  async execute(ctx) {
    const artifactId = await ctx.emitArtifact({ name: 'story', parts: [textPart('one ')] })
    await ctx.emitArtifact({ artifactId, parts: [textPart('two ')] }, { append: true })
    await ctx.emitArtifact(
      { artifactId, parts: [textPart('three')] },
      { append: true, lastChunk: true },
    )
  },
})

export const throwingSkill = defineSkill({
  ...base,
  id: 'throws',
  name: 'Throws',
  execute() {
    return Promise.reject(new Error('secret internal detail /etc/passwd'))
  },
})

/** Ignores its abort signal and never finishes. */
export const stuckSkill = defineSkill({
  ...base,
  id: 'stuck',
  name: 'Stuck',
  execute: () => new Promise(() => {}),
})
