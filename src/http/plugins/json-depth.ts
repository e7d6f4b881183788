/**
 * Refuses a JSON body nested deeper than `maxDepth`. JSON.parse takes any depth, but the code
 * that serializes, hashes or freezes a task recurses, and a megabyte of `[[[[…` would overflow
 * its stack; the check runs on every route before validation, so no handler sees such a body.
 */
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { LimitExceededError } from '../../domain/errors.js'

export interface JsonDepthOptions {
  maxDepth: number
}

/** The top-level field under which `value` nests deeper than `maxDepth`, if any. */
export function tooDeep(value: unknown, maxDepth: number): string | undefined {
  if (value === null || typeof value !== 'object') return undefined
  // Iterative, so that checking a deep body cannot overflow the stack either.
  const stack: { value: object; depth: number; field: string }[] = []
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    if (child !== null && typeof child === 'object')
      stack.push({ value: child, depth: 2, field: key })
  }
  while (stack.length > 0) {
    const { value: node, depth, field } = stack.pop()!
    if (depth > maxDepth) return field
    for (const child of Object.values(node)) {
      if (child !== null && typeof child === 'object') {
        stack.push({ value: child as object, depth: depth + 1, field })
      }
    }
  }
  return undefined
}

const jsonDepth: FastifyPluginAsync<JsonDepthOptions> = async (app, { maxDepth }) => {
  app.addHook('preValidation', async (request) => {
    const field = tooDeep(request.body, maxDepth)
    if (field !== undefined) throw new LimitExceededError('the nesting depth', maxDepth, field)
  })
}

export default fp(jsonDepth, { name: 'a2a-json-depth', fastify: '5.x' })
