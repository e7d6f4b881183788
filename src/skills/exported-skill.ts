/**
 * What a skill module exports, checked before the server serves it. Every problem stops the
 * start naming the module, and says what is wrong: a field that is missing or of the wrong type,
 * an id that cannot be a scope, an inputSchema that does not compile.
 */
import { MAX_DURATION_MS } from '../domain/duration.js'
import { ConfigError } from '../domain/config-error.js'
import { inputSchemaCompiler } from './input-schema.js'
import type { Skill } from './skill.js'
import { checkSkillRules } from './skill-rules.js'

/** What each field must be, in the words of the message when it is not. */
const STRING = { is: (value: unknown) => typeof value === 'string', not: 'is not a string' }
const STRINGS = {
  is: (value: unknown) => Array.isArray(value) && value.every((item) => typeof item === 'string'),
  not: 'are not a list of strings',
}
const FUNCTION = { is: (value: unknown) => typeof value === 'function', not: 'is not a function' }

const REQUIRED = { id: STRING, name: STRING, description: STRING, tags: STRINGS, execute: FUNCTION }
const OPTIONAL = { examples: STRINGS, inputModes: STRINGS, outputModes: STRINGS, scopes: STRINGS }

export function assertSkill(value: unknown, specifier: string): asserts value is Skill {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigError([
      `SKILL_MODULES: "${specifier}" exports ${describeValue(value)}, not a skill (an object with id, name, description, tags and execute)`,
    ])
  }
  const skill = value as Record<string, unknown>
  const missing = Object.keys(REQUIRED)
    .filter((key) => skill[key] === undefined)
    .map((key) => (key === 'execute' ? 'execute (a function)' : key))
  if (missing.length > 0) {
    throw new ConfigError([
      `SKILL_MODULES: "${specifier}" exports a skill without ${missing.join(', ')}`,
    ])
  }
  const named = typeof skill.id === 'string' ? `skill "${skill.id}"` : 'a skill'
  const mistyped = Object.entries({ ...REQUIRED, ...OPTIONAL })
    .filter(([key, type]) => skill[key] !== undefined && !type.is(skill[key]))
    .map(([key, type]) => `${key} ${type.not}`)
  if (mistyped.length > 0) {
    throw new ConfigError([
      `SKILL_MODULES: "${specifier}" exports ${named} whose ${mistyped.join(', ')}`,
    ])
  }
  const timeoutMs = skill.timeoutMs
  if (
    timeoutMs !== undefined &&
    !(Number.isInteger(timeoutMs) && Number(timeoutMs) >= 0 && Number(timeoutMs) <= MAX_DURATION_MS)
  ) {
    throw new ConfigError([
      `SKILL_MODULES: "${specifier}" exports ${named} whose timeoutMs is not a whole number from 0 to ${MAX_DURATION_MS} (24 days)`,
    ])
  }
  // Checked again by the registry, which cannot tell where a skill came from.
  checkSkillRules(
    inputSchemaCompiler(),
    value as Skill,
    `SKILL_MODULES: "${specifier}" exports ${named}`,
  )
}

/** What a module exported instead of a skill, for the message. */
function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value)
  if (Array.isArray(value)) return 'an array inside its array'
  return `a ${typeof value}`
}
