/**
 * Two skills with one id: the message names where each came from, and what to change there.
 */
import { ConfigError } from '../domain/config-error.js'
import type { Skill } from './skill.js'

/** Where a loaded skill came from: an entry of a setting, and the entry's place in the list. */
export interface SkillOrigin {
  setting: 'BUNDLED_SKILLS' | 'SKILL_MODULES'
  entry: string
  position: number
}

/** `origins[i]` is where `skills[i]` came from; bundled skills come first. */
export function refuseSharedIds(skills: readonly Skill[], origins: readonly SkillOrigin[]): void {
  const first = new Map<string, number>()
  skills.forEach((skill, index) => {
    const earlier = first.get(skill.id)
    if (earlier === undefined) {
      first.set(skill.id, index)
      return
    }
    throw new ConfigError([
      `two skills share the id "${skill.id}": ${clash(origins[earlier]!, origins[index]!)}`,
    ])
  })
}

function clash(earlier: SkillOrigin, later: SkillOrigin): string {
  const sameSetting = earlier.setting === later.setting
  if (sameSetting && earlier.position === later.position) {
    return `both from ${named(earlier)}; rename one of them`
  }
  if (sameSetting && earlier.entry === later.entry) {
    return `${earlier.setting} names "${earlier.entry}" twice; name it once`
  }
  const both = `${named(earlier)} and ${named(later)}`
  if (earlier.setting === 'BUNDLED_SKILLS' && later.setting === 'SKILL_MODULES') {
    return `${both}; rename the id of the skill in "${later.entry}", or leave "${earlier.entry}" out of BUNDLED_SKILLS`
  }
  return `${both}; rename the id of the skill in one of them`
}

const named = (origin: SkillOrigin) => `${origin.setting} "${origin.entry}"`
