/**
 * A skill's `inputSchema` (JSON Schema 2020-12, with the ajv-formats formats), enforced on a
 * message's data input before the skill runs. Each schema is compiled once, when the skills are
 * loaded, so a bad schema stops the start instead of failing requests.
 *
 * The data input is what the skill reads as `ctx.input.data`: the message's data parts merged
 * into one object, a later part's field winning. A message without data parts has no data input
 * (its text and files are the skill's to read) and is not checked.
 */
import { Ajv2020 } from 'ajv/dist/2020.js'
import type { ErrorObject } from 'ajv'
import ajvFormats from 'ajv-formats'
import { SkillInputInvalidError } from '../domain/errors.js'
import type { JsonSchema } from '../domain/agent.js'
import type { DataPart, Message } from '../domain/model.js'
import { contentOf } from '../domain/parts.js'

/** Throws SkillInputInvalidError when the message's data input does not match. */
export type InputCheck = (message: Message) => void

/** One validator per registry: schemas with the same `$id` in two apps never collide. */
export function inputSchemaCompiler(): (skillId: string, schema: JsonSchema) => InputCheck {
  // strict: false accepts keywords ajv does not know (legal in JSON Schema); the schema itself
  // is still checked against the 2020-12 meta-schema. One error is enough to answer with.
  const ajv = new Ajv2020({ strict: false, allErrors: false, coerceTypes: false })
  // ajv-formats is CommonJS: under NodeNext its plugin is the module's `default`.
  ajvFormats.default(ajv)
  return (skillId, schema) => {
    const validate = ajv.compile(schema)
    return (message) => {
      if (!message.parts.some((part) => part.kind === 'data')) return
      if (validate(contentOf(message.parts).data)) return
      const error = validate.errors?.[0]
      const { pointer, problem } = violation(error)
      throw new SkillInputInvalidError(skillId, fieldOf(message, pointer), pointer, problem)
    }
  }
}

/** The JSON pointer of the offending value, and what is wrong with it. */
function violation(error: ErrorObject | undefined): { pointer: string; problem: string } {
  if (!error) return { pointer: '', problem: 'does not match the input schema' }
  const params = error.params as Record<string, unknown>
  const named = (key: string) => `${error.instancePath}/${escapePointer(String(params[key]))}`
  switch (error.keyword) {
    case 'required':
      return { pointer: named('missingProperty'), problem: 'is required' }
    case 'additionalProperties':
      return { pointer: named('additionalProperty'), problem: 'is not allowed' }
    case 'unevaluatedProperties':
      return { pointer: named('unevaluatedProperty'), problem: 'is not allowed' }
    default:
      return { pointer: error.instancePath, problem: error.message ?? 'is invalid' }
  }
}

/** Where the pointer lands in the request: the data part that holds its first field. */
function fieldOf(message: Message, pointer: string): string {
  const segments = pointer === '' ? [] : pointer.slice(1).split('/').map(unescapePointer)
  const dataParts = message.parts
    .map((part, index) => ({ part, index }))
    .filter((entry): entry is { part: DataPart; index: number } => entry.part.kind === 'data')
  const first = segments[0]
  const holder =
    dataParts.findLast(({ part }) => first !== undefined && Object.hasOwn(part.data, first)) ??
    dataParts.at(-1)
  const path = segments.map((segment) => (/^\d+$/.test(segment) ? `[${segment}]` : `.${segment}`))
  return `message.parts[${holder?.index ?? 0}].data${path.join('')}`
}

const escapePointer = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1')
const unescapePointer = (segment: string) => segment.replaceAll('~1', '/').replaceAll('~0', '~')
