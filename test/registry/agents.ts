/**
 * The agents the registry and orchestrator tests register: this server, built with skills of
 * their own, listening on a real port that a test can stop and start again (same port, maybe
 * another card), and counting the card reads it serves.
 */
import type { IncomingMessage } from 'node:http'
import type { FastifyInstance } from 'fastify'
import { textPart } from '../../src/domain/parts.js'
import type { Skill } from '../../src/skills/skill.js'
import { defineSkill } from '../../src/skills/skill.js'
import { freePort } from '../client/agents.js'
import { testApp } from '../helpers/app.js'
import { askSkill } from '../helpers/skills.js'

/** Translates by shouting, and says which agent did it; it takes text alone. */
export const translateSkill = (agent: string): Skill =>
  defineSkill({
    id: 'translate',
    name: 'Translate',
    description: 'Translates text (loudly)',
    tags: ['language', 'text'],
    inputModes: ['text/plain'],
    async execute(ctx) {
      await ctx.progress(`${agent} is translating`)
      await ctx.emitArtifact({
        name: 'translation',
        parts: [textPart(`${agent}: ${ctx.input.text.toUpperCase()}`)],
      })
      return ctx.complete()
    },
  })

/** Counts the words of the text; asks for some when the message has none. */
export const countSkill = defineSkill({
  id: 'count',
  name: 'Count',
  description: 'Counts the words of the text',
  tags: ['math'],
  async execute(ctx) {
    const words = ctx.input.text.split(/\s+/).filter(Boolean).length
    if (words === 0) return ctx.requestInput('Which words should I count?')
    await ctx.emitArtifact({ name: 'count', parts: [textPart(String(words))] })
    return ctx.complete()
  },
})

/** Always fails, with a reason: a clear answer, not an outage. */
export const refuseSkill = defineSkill({
  id: 'translate',
  name: 'Translate',
  description: 'Refuses every translation',
  tags: ['language'],
  execute: (ctx) => Promise.resolve(ctx.fail('I do not translate on Mondays')),
})

export { askSkill }

export interface TestAgent {
  name: string
  url: string
  port: number
  /** Card reads served since the agent (re)started. */
  cardReads: () => number
  /** The `sub` of each bearer token it was sent (cards included), in order; null for none. */
  callers: () => (string | null)[]
  stop(): Promise<void>
  /** Starts again on the same port, with these skills (default: the same). */
  restart(skills?: Skill[]): Promise<void>
}

export async function startTestAgent(name: string, skills: Skill[]): Promise<TestAgent> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  let app: FastifyInstance | undefined
  let reads = 0
  const callers: (string | null)[] = []
  let current = skills
  const listen = async () => {
    app = await testApp({ AGENT_NAME: name, PUBLIC_URL: url }, { skills: current })
    await app.listen({ host: '127.0.0.1', port })
    app.server.on('request', (request: IncomingMessage) => {
      if (request.url?.startsWith('/.well-known/')) reads++
      callers.push(subjectOf(request.headers.authorization))
    })
  }
  await listen()
  return {
    name,
    url,
    port,
    cardReads: () => reads,
    callers: () => [...callers],
    async stop() {
      await app?.close()
      app = undefined
    },
    async restart(skills) {
      if (skills) current = skills
      await listen()
    },
  }
}

/** The token's subject, read without verifying (the agent verifies it). */
function subjectOf(authorization: string | undefined): string | null {
  const payload = authorization?.match(/^Bearer [^.]+\.([^.]+)\./)?.[1]
  if (payload === undefined) return null
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { sub?: string }
  return claims.sub ?? null
}
