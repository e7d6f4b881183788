/** Echoes the message back: the smallest useful skill, and the one benchmarks and tests use. */
import { dataPart, textPart } from '../../domain/parts.js'
import type { Part } from '../../domain/model.js'
import { defineSkill } from '../skill.js'

export const echoSkill = defineSkill({
  id: 'echo',
  name: 'Echo',
  description: 'Replies with the text and data it was sent',
  tags: ['utility', 'testing'],
  examples: ['hello'],
  inputModes: ['text/plain', 'application/json'],
  outputModes: ['text/plain', 'application/json'],
  async execute(ctx) {
    const parts: Part[] = [textPart(ctx.input.text)]
    if (Object.keys(ctx.input.data).length > 0) parts.push(dataPart(ctx.input.data))
    await ctx.emitArtifact({ name: 'echo', parts })
    return ctx.complete(ctx.input.text)
  },
})
