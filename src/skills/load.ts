/**
 * Which skills the agent serves: bundled ones by name, plus the user's own from module paths
 * (SKILL_MODULES), so a user adds a skill without editing the server.
 */
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { echoSkill } from './echo/index.js'
import { reviewPrSkill } from './review-pr/index.js'
import { ConfigError } from '../domain/config-error.js'
import { assertSkill } from './exported-skill.js'
import { refuseSharedIds, type SkillOrigin } from './shared-ids.js'
import type { Skill } from './skill.js'
import { thrownProblem } from './thrown.js'

export const BUNDLED_SKILLS: Readonly<Record<string, Skill>> = {
  'review-pr': reviewPrSkill,
  echo: echoSkill,
}

/** What a skill module may default-export. */
export type SkillModuleExport = Skill | Skill[] | (() => Skill | Skill[] | Promise<Skill | Skill[]>)

/**
 * `wired` adds bundled skills that the app builds from its own services (e.g. `orchestrate`,
 * from the agent registry); each is built only when BUNDLED_SKILLS names it.
 */
export async function loadSkills(
  bundled: readonly string[],
  modules: readonly string[],
  wired: Readonly<Record<string, () => Skill>> = {},
): Promise<Skill[]> {
  const skills = bundled.map((name) => {
    // Own names only: `BUNDLED_SKILLS=constructor` names no skill.
    const skill = Object.hasOwn(BUNDLED_SKILLS, name)
      ? BUNDLED_SKILLS[name]
      : Object.hasOwn(wired, name)
        ? wired[name]!()
        : undefined
    if (!skill) {
      const known = [...Object.keys(BUNDLED_SKILLS), ...Object.keys(wired)]
      throw new ConfigError([
        `BUNDLED_SKILLS: unknown skill "${name}"; bundled: ${known.join(', ')}`,
      ])
    }
    return skill
  })
  const origins: SkillOrigin[] = bundled.map((entry, position) => ({
    setting: 'BUNDLED_SKILLS',
    entry,
    position,
  }))
  for (const [position, entry] of modules.entries()) {
    const imported = await importSkills(entry)
    skills.push(...imported)
    for (const _ of imported) origins.push({ setting: 'SKILL_MODULES', entry, position })
  }
  refuseSharedIds(skills, origins)
  return skills
}

async function importSkills(specifier: string): Promise<Skill[]> {
  // A path (./x, /x, x.js) is taken from the working directory; anything else is a package name.
  const isPath = /^[./]|\.[cm]?js$/.test(specifier)
  if (/\.[cm]?ts$/.test(specifier)) {
    throw new ConfigError([
      `SKILL_MODULES: "${specifier}" is TypeScript, which Node does not load: compile it (tsc) and name the .js file`,
    ])
  }
  const url = isPath ? pathToFileURL(resolve(specifier)).href : specifier
  let module: Record<string, unknown>
  try {
    module = (await settled(import(url), specifier)) as Record<string, unknown>
  } catch (error) {
    if (error instanceof ConfigError) throw error
    const problem = `SKILL_MODULES: cannot load "${specifier}": ${thrownProblem(error, specifier)}`
    throw Object.assign(new ConfigError([problem]), { cause: error })
  }
  let exported = module.default
  if (exported === undefined) {
    const named = Object.keys(module)
    throw new ConfigError([
      `SKILL_MODULES: "${specifier}" has no default export; export the skill (or an array of skills) as default` +
        (named.length > 0 ? ` (it exports ${named.join(', ')})` : ''),
    ])
  }
  if (typeof exported === 'function') {
    try {
      exported = await settled(Promise.resolve((exported as () => unknown)()), specifier)
    } catch (error) {
      if (error instanceof ConfigError) throw error
      const problem = `SKILL_MODULES: the skill factory of "${specifier}" threw: ${thrownProblem(error, specifier)}`
      throw Object.assign(new ConfigError([problem]), { cause: error })
    }
  }
  const skills = Array.isArray(exported) ? exported : [exported]
  if (skills.length === 0) {
    throw new ConfigError([`SKILL_MODULES: "${specifier}" exports no skill (an empty array)`])
  }
  for (const skill of skills) assertSkill(skill, specifier)
  return skills as Skill[]
}

/**
 * `loading`, or a ConfigError once nothing is left that could settle it: an import or factory
 * awaiting a promise nobody resolves would otherwise let the event loop run dry, and the
 * process exit 0 without a word. A slow load (a socket, a timer) is waited for.
 */
async function settled<T>(loading: Promise<T>, specifier: string): Promise<T> {
  let onIdle!: () => void
  const idle = new Promise<never>((_resolve, reject) => {
    onIdle = () =>
      reject(
        new ConfigError([
          `SKILL_MODULES: loading "${specifier}" never finished: its import or its factory awaits something that nothing will ever settle`,
        ]),
      )
  })
  process.once('beforeExit', onIdle)
  try {
    return await Promise.race([loading, idle])
  } finally {
    process.off('beforeExit', onIdle)
  }
}
