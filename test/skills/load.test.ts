import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { ConfigError } from '../../src/domain/config-error.js'
import { loadSkills } from '../../src/skills/load.js'
import { SkillRegistry } from '../../src/skills/registry.js'
import { testApp } from '../helpers/app.js'
import { sendBody } from '../helpers/bodies.js'

/** The lines a start stopped by `loading` prints under "Invalid configuration:". */
async function problems(loading: Promise<unknown>): Promise<string[]> {
  const failed = await loading.then(
    () => undefined,
    (error: unknown) => error,
  )
  expect(failed).toBeInstanceOf(ConfigError)
  return (failed as ConfigError).problems
}

describe('plugging in skills', () => {
  let app: FastifyInstance | undefined
  afterEach(() => app?.close())

  it('serves a skill from a module path in SKILL_MODULES, on the card and in tasks', async () => {
    app = await testApp({
      SKILL_MODULES: './test/fixtures/greeting-skill.js',
      DEFAULT_SKILL: 'greet',
    })
    const card = (await app.inject('/.well-known/agent.json')).json()
    expect(card.skills.map((s: { id: string }) => s.id)).toEqual(['review-pr', 'echo', 'greet'])
    const task = (
      await app.inject({ method: 'POST', url: '/tasks/send', payload: sendBody('Ada') })
    ).json()
    expect(task.artifacts[0].parts).toEqual([{ type: 'text', text: 'Hello, Ada!' }])
  })

  it('accepts a module whose default export is a factory of several skills', async () => {
    const skills = await loadSkills([], ['./test/fixtures/skill-factory.js'])
    expect(skills.map((s) => s.id)).toEqual(['upper', 'lower'])
  })

  it('names the module and what is missing when an export is not a skill', async () => {
    await expect(loadSkills([], ['./test/fixtures/not-a-skill.js'])).rejects.toThrow(
      'SKILL_MODULES: "./test/fixtures/not-a-skill.js" exports a skill without description, tags, execute (a function)',
    )
  })

  it('names the module whose skill factory throws, or which exports no skill', async () => {
    const failed = await loadSkills([], ['./test/fixtures/throwing-factory-skill.js']).catch(
      (error: unknown) => error,
    )
    expect(failed).toBeInstanceOf(ConfigError)
    expect((failed as Error).message).toContain(
      'SKILL_MODULES: the skill factory of "./test/fixtures/throwing-factory-skill.js" threw: OPENAI_API_KEY is not set',
    )
    await expect(loadSkills([], ['./test/fixtures/empty-skills.js'])).rejects.toThrow(
      'SKILL_MODULES: "./test/fixtures/empty-skills.js" exports no skill (an empty array)',
    )
  })

  it('says which field of a skill has the wrong type, rather than that it is missing', async () => {
    expect(await problems(loadSkills([], ['./test/fixtures/string-tags-skill.js']))).toEqual([
      'SKILL_MODULES: "./test/fixtures/string-tags-skill.js" exports skill "demo" whose tags are not a list of strings',
    ])
    expect(await problems(loadSkills([], ['./test/fixtures/wrong-types-skill.js']))).toEqual([
      'SKILL_MODULES: "./test/fixtures/wrong-types-skill.js" exports skill "mistyped" whose name is not a string, tags are not a list of strings, execute is not a function, scopes are not a list of strings',
    ])
  })

  it('says a module has no default export, and what it exports instead', async () => {
    await expect(loadSkills([], ['./test/fixtures/named-export-skill.js'])).rejects.toThrow(
      'SKILL_MODULES: "./test/fixtures/named-export-skill.js" has no default export; export the skill (or an array of skills) as default (it exports shout)',
    )
  })

  it('says what a module exported when it is not a skill at all', async () => {
    await expect(loadSkills([], ['./test/fixtures/factory-returns-nothing.js'])).rejects.toThrow(
      'SKILL_MODULES: "./test/fixtures/factory-returns-nothing.js" exports undefined, not a skill (an object with id, name, description, tags and execute)',
    )
  })

  it('says a TypeScript module is to be compiled first', async () => {
    await expect(loadSkills([], ['my-skill.ts'])).rejects.toThrow(
      'SKILL_MODULES: "my-skill.ts" is TypeScript, which Node does not load: compile it (tsc) and name the .js file',
    )
  })

  it('names the skill when its own timeoutMs is not a whole number of ms', async () => {
    await expect(loadSkills([], ['./test/fixtures/bad-timeout-skill.js'])).rejects.toThrow(
      'SKILL_MODULES: "./test/fixtures/bad-timeout-skill.js" exports skill "sloppy" whose timeoutMs is not a whole number from 0 to 2073600000 (24 days)',
    )
  })

  // A syntax error, which Node reports unlike the test runner, is in test/process/server.test.ts.
  it('says where a bug in a module is, and shows what was thrown when it is no Error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a2a-skills-'))
    try {
      const write = (name: string, source: string) => {
        writeFileSync(join(dir, name), source)
        return join(dir, name)
      }
      const helper = write(
        'helper.mjs',
        "export const cities = () => process.env.NOPE.split(',')\n",
      )
      const buggy = write('buggy.mjs', "import { cities } from './helper.mjs'\ncities()\n")
      const text = write('text.mjs', "throw 'missing API key'\n")
      const object = write('object.mjs', "export default () => { throw { code: 'ENOKEY' } }\n")
      expect(await problems(loadSkills([], [buggy]))).toEqual([
        `SKILL_MODULES: cannot load "${buggy}": TypeError: Cannot read properties of undefined (reading 'split') (at ${helper}:1:46)`,
      ])
      expect(await problems(loadSkills([], [text]))).toEqual([
        `SKILL_MODULES: cannot load "${text}": missing API key`,
      ])
      expect(await problems(loadSkills([], [object]))).toEqual([
        `SKILL_MODULES: the skill factory of "${object}" threw: {"code":"ENOKEY"}`,
      ])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('names the module when it cannot be loaded', async () => {
    await expect(loadSkills([], ['./test/fixtures/missing.js'])).rejects.toThrow(
      /- SKILL_MODULES: cannot load "\.\/test\/fixtures\/missing\.js"/,
    )
  })

  it('refuses an unknown bundled skill and a DEFAULT_SKILL it does not serve', async () => {
    await expect(loadSkills(['nope'], [])).rejects.toThrow('BUNDLED_SKILLS: unknown skill "nope"')
    await expect(loadSkills(['constructor'], [])).rejects.toThrow(
      'BUNDLED_SKILLS: unknown skill "constructor"',
    )
    const skills = await loadSkills(['echo'], [])
    expect(() => new SkillRegistry(skills, 'review-pr')).toThrow(
      'DEFAULT_SKILL: "review-pr" is not one of: echo',
    )
  })

  it('refuses a skill id that cannot be granted as a scope (space, "*", "/", empty)', async () => {
    const [echo] = await loadSkills(['echo'], [])
    for (const id of ['my skill', 'a*', 'tools/v2', '', '-dash', 'x'.repeat(65)]) {
      expect(() => new SkillRegistry([{ ...echo!, id }])).toThrow(
        `skill "${id}": an id is 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit`,
      )
    }
    expect(new SkillRegistry([{ ...echo!, id: 'Review_PR.v2-beta' }]).ids()).toEqual([
      'Review_PR.v2-beta',
    ])
  })

  it('names the module whose skill has an id that cannot be granted as a scope', async () => {
    expect(await problems(loadSkills([], ['./test/fixtures/bad-id-skill.js']))).toEqual([
      'SKILL_MODULES: "./test/fixtures/bad-id-skill.js" exports skill "bad id!": an id is 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit (callers are granted it as the scope skill:<id>)',
    ])
  })

  it('names the module whose skill has an inputSchema that is not JSON Schema', async () => {
    expect(await problems(loadSkills([], ['./test/fixtures/bad-schema-skill.js']))).toEqual([
      'SKILL_MODULES: "./test/fixtures/bad-schema-skill.js" exports skill "badschema": inputSchema is not a valid JSON Schema: schema is invalid: data/required must be array',
    ])
  })

  it('refuses two skills with one id, naming where each came from and what to change', async () => {
    expect(await problems(loadSkills(['echo'], ['./test/fixtures/echo-again-skill.js']))).toEqual([
      'two skills share the id "echo": BUNDLED_SKILLS "echo" and SKILL_MODULES "./test/fixtures/echo-again-skill.js"; rename the id of the skill in "./test/fixtures/echo-again-skill.js", or leave "echo" out of BUNDLED_SKILLS',
    ])
    expect(
      await problems(
        loadSkills([], ['./test/fixtures/greeting-skill.js', './test/fixtures/twin-skills.js']),
      ),
    ).toEqual([
      'two skills share the id "greet": SKILL_MODULES "./test/fixtures/greeting-skill.js" and SKILL_MODULES "./test/fixtures/twin-skills.js"; rename the id of the skill in one of them',
    ])
    expect(await problems(loadSkills([], ['./test/fixtures/twin-skills.js']))).toEqual([
      'two skills share the id "greet": both from SKILL_MODULES "./test/fixtures/twin-skills.js"; rename one of them',
    ])
    expect(
      await problems(
        loadSkills([], ['./test/fixtures/skill-factory.js', './test/fixtures/skill-factory.js']),
      ),
    ).toEqual([
      'two skills share the id "upper": SKILL_MODULES names "./test/fixtures/skill-factory.js" twice; name it once',
    ])
    expect(await problems(loadSkills(['echo', 'echo'], []))).toEqual([
      'two skills share the id "echo": BUNDLED_SKILLS names "echo" twice; name it once',
    ])
    const skills = await loadSkills(['echo'], [])
    expect(() => new SkillRegistry([...skills, ...skills])).toThrow(
      'two skills share the id "echo"',
    )
  })
})
