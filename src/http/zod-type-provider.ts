/**
 * Route schemas are zod schemas: Fastify validates with them (a failure is an
 * InvalidRequestError naming the field) and handlers get the inferred types.
 */
import type { FastifySchemaCompiler, FastifyTypeProvider } from 'fastify'
import type { z } from 'zod'
import { InvalidRequestError } from '../domain/errors.js'
import { bodyProblem, plainly } from '../domain/issue-messages.js'

export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown
  serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> : unknown
}

const PART_NAMES: Record<string, string> = {
  body: '',
  querystring: 'query',
  params: 'path',
  headers: 'header',
}

export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const result = schema.safeParse(data, plainly)
    if (result.success) return { value: result.data }
    const issue = result.error.issues[0]!
    if (httpPart === 'body' && issue.path.length === 0 && issue.code === 'invalid_type') {
      return { error: new InvalidRequestError(bodyProblem(data)) }
    }
    const prefix = PART_NAMES[httpPart ?? 'body'] ?? ''
    const field = [prefix, ...issue.path.map(pathSegment)]
      .filter(Boolean)
      .join('.')
      .replace(/\.\[/g, '[')
    return { error: new InvalidRequestError(issue.message, field || undefined) }
  }

const pathSegment = (key: PropertyKey): string =>
  typeof key === 'number' ? `[${key}]` : String(key)
