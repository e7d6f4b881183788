/** The skills an agent serves, and which one runs when a request names none. */
import { ConfigError } from '../domain/config-error.js'
import { UnknownSkillError } from '../domain/errors.js'
import type { Message } from '../domain/model.js'
import { inputSchemaCompiler, type InputCheck } from './input-schema.js'
import type { Skill } from './skill.js'
import { checkSkillRules } from './skill-rules.js'

export class SkillRegistry {
  readonly #skills = new Map<string, Skill>()
  readonly #inputChecks = new Map<string, InputCheck>()
  /** What skill authors should hear about their schemas (unknown keywords), logged at start. */
  readonly warnings: string[] = []
  readonly defaultSkill: Skill

  constructor(skills: readonly Skill[], defaultSkillId?: string) {
    const compile = inputSchemaCompiler()
    for (const skill of skills) {
      if (this.#skills.has(skill.id))
        throw new ConfigError([`two skills share the id "${skill.id}"`])
      const compiled = checkSkillRules(compile, skill)
      this.#skills.set(skill.id, skill)
      if (!compiled) continue
      this.#inputChecks.set(skill.id, compiled.check)
      this.warnings.push(...compiled.warnings)
    }
    const first = skills[0]
    if (!first) throw new ConfigError(['BUNDLED_SKILLS and SKILL_MODULES name no skill'])
    const chosen = defaultSkillId === undefined ? first : this.#skills.get(defaultSkillId)
    if (!chosen) {
      throw new ConfigError([
        `DEFAULT_SKILL: "${defaultSkillId}" is not one of: ${this.ids().join(', ')}`,
      ])
    }
    this.defaultSkill = chosen
  }

  /** The named skill, or the default one; an unknown id is the caller's error. */
  resolve(skillId: string | undefined): Skill {
    if (skillId === undefined) return this.defaultSkill
    const skill = this.#skills.get(skillId)
    if (!skill) throw new UnknownSkillError(skillId, this.ids())
    return skill
  }

  /**
   * Checks a message's data input against the skill's `inputSchema` (see input-schema.ts);
   * throws SkillInputInvalidError, naming the field. A skill without a schema takes any input.
   * `earlier`: the task's conversation, for an answer to an input-required task.
   */
  checkInput(skillId: string, message: Message, earlier?: readonly Message[]): void {
    this.#inputChecks.get(skillId)?.(message, earlier)
  }

  get(skillId: string): Skill | undefined {
    return this.#skills.get(skillId)
  }

  list(): Skill[] {
    return [...this.#skills.values()]
  }

  ids(): string[] {
    return [...this.#skills.keys()]
  }
}
