/**
 * A skill's `inputSchema` (JSON Schema 2020-12, with the ajv-formats formats), enforced on a
 * message's data input before the skill runs. Each schema is compiled once, when the skills are
 * loaded, so a bad schema stops the start instead of failing requests.
 *
 * The data input is what the skill reads as `ctx.input.data`: the message's data parts merged
 * into one object, a later part's field winning. A message without data parts has no data input
 * (its text and files are the skill's to read) and is not checked. An answer to an
 * input-required task is checked together with the data its task was given before: its fields
 * are merged over the earlier user messages' data, so an answer need not repeat the required
 * fields, and a field it sends must still match. The skill reads that merged data too.
 */
import { Ajv2020 } from 'ajv/dist/2020.js'
import type { ErrorObject } from 'ajv'
import ajvFormats from 'ajv-formats'
import { SkillInputInvalidError } from '../domain/errors.js'
import type { JsonSchema } from '../domain/agent.js'
import type { DataPart, Message } from '../domain/model.js'
import { userDataOf } from '../domain/parts.js'

/**
 * Throws SkillInputInvalidError when the message's data input does not match; `earlier`: the
 * task's conversation so far, for an answer to an input-required task.
 */
export type InputCheck = (message: Message, earlier?: readonly Message[]) => void

/** A compiled schema, and what its author should hear about it (unknown keywords). */
export interface CompiledInputSchema {
  check: InputCheck
  warnings: string[]
}

/**
 * One validator per registry: schemas with the same `$id` in two apps never collide. Throws on
 * a schema that cannot check a data input: not valid JSON Schema, a format no validator knows,
 * or a top-level type other than object.
 */
export function inputSchemaCompiler(): (
  skillId: string,
  schema: JsonSchema,
) => CompiledInputSchema {
  // Keywords ajv does not know are legal in JSON Schema: they are allowed, and reported (a
  // misspelt `requried` would otherwise pass unseen). An unknown format would go unchecked: ajv
  // refuses it in this mode. The schema itself is checked against the 2020-12 meta-schema. One
  // error is enough to answer with.
  const notices: string[] = []
  const logger = {
    log: () => undefined,
    warn: (...args: unknown[]) => notices.push(args.map(String).join(' ')),
    error: (...args: unknown[]) => notices.push(args.map(String).join(' ')),
  }
  const ajv = new Ajv2020({
    strict: false,
    strictSchema: 'log',
    allErrors: false,
    coerceTypes: false,
    logger,
  })
  // ajv-formats is CommonJS: under NodeNext its plugin is the module's `default`.
  ajvFormats.default(ajv)
  return (skillId, schema) => {
    refuseNonObject(schema)
    notices.length = 0
    const validate = compileOrExplain(ajv, schema)
    const warnings = notices.map(
      (notice) => `skill "${skillId}": inputSchema: ${notice.replace(/^strict mode: /, '')}`,
    )
    const check: InputCheck = (message, earlier = []) => {
      if (!message.parts.some((part) => part.kind === 'data')) return
      if (validate(userDataOf([...earlier, message]))) return
      const error = validate.errors?.[0]
      const { pointer, problem } = violation(error)
      throw new SkillInputInvalidError(skillId, fieldOf(message, pointer), pointer, problem)
    }
    return { check, warnings }
  }
}

/** ajv's compile, its unknown-format message saying that the format is refused, not ignored. */
function compileOrExplain(ajv: Ajv2020, schema: JsonSchema) {
  try {
    return ajv.compile(schema)
  } catch (error) {
    const message = (error as Error).message
    if (!message.startsWith('unknown format')) throw error
    throw new Error(
      `${message.replace(' ignored in schema', '')}; known formats: ${Object.keys(ajv.formats).join(', ')}`,
      { cause: error },
    )
  }
}

/** The data input is an object: a schema of another type would refuse every data part. */
function refuseNonObject(schema: JsonSchema): void {
  const type = (schema as { type?: unknown }).type
  const types = Array.isArray(type) ? type : [type]
  if (type !== undefined && !types.includes('object')) {
    throw new Error(
      `its type is ${JSON.stringify(type)}, but it checks the message's data parts merged into one object: use type "object"`,
    )
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
