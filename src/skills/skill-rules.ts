/**
 * What a skill must be for the registry to serve it, beyond its shape: an id that can be granted
 * as a scope, and an inputSchema that compiles. The loader asks first, so that the message names
 * the module a skill came from; the registry asks again, for skills handed to it in code.
 */
import { ConfigError } from '../domain/config-error.js'
import type { CompiledInputSchema, inputSchemaCompiler } from './input-schema.js'
import type { Skill } from './skill.js'

/**
 * What a skill id may be: it is granted as the scope `skill:<id>`, where a space would split it
 * into two scopes and `*` means every skill, and it travels in `metadata.skillId`.
 */
const SKILL_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

/**
 * The skill's compiled inputSchema (undefined when it has none). A bad id or schema throws a
 * ConfigError whose line starts with `whose`, the skill as the message names it.
 */
export function checkSkillRules(
  compile: ReturnType<typeof inputSchemaCompiler>,
  skill: Skill,
  whose = `skill "${skill.id}"`,
): CompiledInputSchema | undefined {
  if (!SKILL_ID.test(skill.id)) {
    throw new ConfigError([
      `${whose}: an id is 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit (callers are granted it as the scope skill:<id>)`,
    ])
  }
  if (skill.inputSchema === undefined) return undefined
  try {
    return compile(skill.id, skill.inputSchema)
  } catch (error) {
    const problem = `${whose}: inputSchema is not a valid JSON Schema: ${(error as Error).message}`
    throw Object.assign(new ConfigError([problem]), { cause: error })
  }
}
