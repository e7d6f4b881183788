/** The skills an agent serves, and which one runs when a request names none. */
import { ConfigError } from '../domain/config-error.js'
import { UnknownSkillError } from '../domain/errors.js'
import type { Skill } from './skill.js'

export class SkillRegistry {
  readonly #skills = new Map<string, Skill>()
  readonly defaultSkill: Skill

  constructor(skills: readonly Skill[], defaultSkillId?: string) {
    for (const skill of skills) {
      if (this.#skills.has(skill.id))
        throw new ConfigError([`two skills share the id "${skill.id}"`])
      this.#skills.set(skill.id, skill)
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
