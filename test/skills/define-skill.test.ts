/**
 * `defineSkill<Data>`: the skill declares the data its messages carry, and reads
 * `ctx.input.data` with those names and types (each field possibly absent, as a message without
 * data parts is not checked). The types are checked by `npm run typecheck`; the run shows the
 * data arrives as declared.
 */
import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest'
import type { Skill, SkillContext } from '../../src/index.js'
import { defineSkill } from '../../src/index.js'
import { testApp } from '../helpers/app.js'

let app: FastifyInstance | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

interface PizzaOrder {
  topping: string
  size?: 'small' | 'large'
}

const pizza = defineSkill<PizzaOrder>({
  id: 'pizza',
  name: 'Pizza',
  description: 'Takes an order',
  tags: ['demo'],
  inputSchema: {
    type: 'object',
    properties: { topping: { type: 'string' }, size: { enum: ['small', 'large'] } },
    required: ['topping'],
  },
  async execute(ctx) {
    expectTypeOf(ctx).toEqualTypeOf<SkillContext<PizzaOrder>>()
    expectTypeOf(ctx.input.data.topping).toEqualTypeOf<string | undefined>()
    expectTypeOf(ctx.input.data.size).toEqualTypeOf<'small' | 'large' | undefined>()
    const { topping, size = 'small' } = ctx.input.data
    if (topping === undefined) return ctx.requestInput('Which topping?')
    return ctx.complete(`a ${size} ${topping} pizza`)
  },
})

describe('defineSkill<Data>', () => {
  it('types ctx.input.data as the skill declares it, and serves beside untyped skills', async () => {
    // The typed skill is a Skill like any other, for the registry and for SKILL_MODULES.
    expectTypeOf(pizza).toEqualTypeOf<Skill>()
    app = await testApp({}, { skills: [pizza] })
    const send = async (parts: unknown[]) =>
      (
        await app!.inject({
          method: 'POST',
          url: '/tasks/send',
          payload: { id: randomUUID(), message: { role: 'user', parts } },
        })
      ).json()
    const ordered = await send([{ type: 'data', data: { topping: 'olives', size: 'large' } }])
    expect(ordered.status).toMatchObject({
      state: 'completed',
      message: { parts: [{ type: 'text', text: 'a large olives pizza' }] },
    })
    // Text alone is not checked against the schema: the skill sees no topping, as its type says.
    const asked = await send([{ type: 'text', text: 'a pizza please' }])
    expect(asked.status.state).toBe('input-required')
  })
})
