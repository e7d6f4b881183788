/**
 * The README's skill examples (`// my-skill.js`, `// slow.js`), saved as written and served
 * through SKILL_MODULES by the built server, as `npm start` runs it: the shout skill answers in
 * capitals, takes a part of any media type and shows on each card as the README says, and the
 * slow one reports its count, completes, and stops mid-count when canceled. The command that
 * serves the shout skill alone, under its own name, is run with its settings as written.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { A2AClient } from '../../src/client/index.js'
import type { StreamEvent } from '../../src/client/index.js'
import { TEST_SECRET, token } from '../helpers/auth.js'
import { root, startBuiltServer } from '../helpers/built-server.js'
import type { BuiltServer } from '../helpers/built-server.js'

/** The README's ```js block that starts with `// <file>`. */
function exampleFile(markdown: string, file: string): string {
  const block = [...markdown.matchAll(/```js\n([\s\S]*?)```/g)]
    .map((match) => match[1]!)
    .find((code) => code.startsWith(`// ${file}`))
  if (!block) throw new Error(`README.md has no js block starting with // ${file}`)
  return block
}

/** The settings (`NAME=value`, `NAME='a value'`) of the README's ```text command that has `marker`. */
function commandSettings(markdown: string, marker: string): Record<string, string> {
  const command = [...markdown.matchAll(/```text\n([\s\S]*?)```/g)]
    .map((match) => match[1]!)
    .find((block) => block.includes(marker))
  if (!command) throw new Error(`README.md has no text block with ${marker}`)
  return Object.fromEntries(
    [...command.matchAll(/([A-Z_]+)=(?:'([^']*)'|(\S*))/g)].map((match) => [
      match[1]!,
      match[2] ?? match[3]!,
    ]),
  )
}

const statusTexts = (events: StreamEvent[]) =>
  events.flatMap((event) =>
    event.kind === 'status-update'
      ? [event.status.message?.parts.map((p) => (p.kind === 'text' ? p.text : '')).join('') ?? '']
      : [],
  )

describe('README skill examples, served by the built server', () => {
  const readme = readFileSync(`${root}README.md`, 'utf8')
  const dir = mkdtempSync(join(tmpdir(), 'a2a-readme-skills-'))
  let server: BuiltServer
  let client: A2AClient

  beforeAll(async () => {
    for (const file of ['my-skill.js', 'slow.js']) {
      writeFileSync(join(dir, file), exampleFile(readme, file))
    }
    server = await startBuiltServer({
      AUTH_JWT_SECRET: TEST_SECRET,
      SKILL_MODULES: `${join(dir, 'my-skill.js')},${join(dir, 'slow.js')}`,
    })
    client = await A2AClient.connect(`http://127.0.0.1:${server.port}`, { token: token() })
  }, 60_000)

  afterAll(() => server?.stop())

  it('shouts', async () => {
    const reply = await client.send({ skill: 'shout', text: 'hello' })
    expect(reply.kind === 'task' && reply.artifacts).toEqual([
      expect.objectContaining({ name: 'loud', parts: [{ kind: 'text', text: 'HELLO' }] }),
    ])
  })

  it('takes a part of any media type, naming no inputModes', async () => {
    const png = { kind: 'file' as const, file: { mimeType: 'image/png', bytes: 'iVBORw0KGgo=' } }
    const reply = await client.send({ skill: 'shout', parts: [png] })
    expect(reply.kind === 'task' && reply.status.state).toBe('completed')
  })

  it('shows the shout skill, which names no modes, on each card as the README says', async () => {
    const card = async (path: string, headers: Record<string, string> = {}): Promise<any> =>
      (await fetch(`http://127.0.0.1:${server.port}${path}`, { headers })).json()
    const shout = (skills: { id: string }[]) => skills.find((skill) => skill.id === 'shout')
    const brief = await card('/.well-known/agent.json')
    expect(shout(brief.skills)).toMatchObject({
      inputModes: ['text', 'data'],
      outputModes: ['text', 'data'],
    })
    for (const headers of [{ 'A2A-Version': '1.0' }, {}] as Record<string, string>[]) {
      const a2a = await card('/.well-known/agent-card.json', headers)
      expect(shout(a2a.skills)).not.toHaveProperty('inputModes')
      expect(shout(a2a.skills)).not.toHaveProperty('outputModes')
      expect([a2a.defaultInputModes, a2a.defaultOutputModes]).toEqual([
        ['text/plain', 'application/json'],
        ['text/plain', 'application/json'],
      ])
    }
  })

  it('serves the shout skill alone, under the name the command gives', async () => {
    const settings = commandSettings(readme, 'BUNDLED_SKILLS=,')
    expect(settings).toMatchObject({ BUNDLED_SKILLS: ',', SKILL_MODULES: './my-skill.js' })
    // Saved beside the server in the README; here in the test's own directory.
    const alone = await startBuiltServer({
      ...settings,
      SKILL_MODULES: join(dir, 'my-skill.js'),
      AUTH_JWT_SECRET: TEST_SECRET,
    })
    try {
      const card: any = await (
        await fetch(`http://127.0.0.1:${alone.port}/.well-known/agent.json`)
      ).json()
      expect(card).toMatchObject({
        name: settings.AGENT_NAME,
        description: settings.AGENT_DESCRIPTION,
        skills: [expect.objectContaining({ id: 'shout' })], // and no other
      })
    } finally {
      alone.stop()
    }
  }, 60_000)

  it('counts, reporting each step, and completes', async () => {
    const events: StreamEvent[] = []
    for await (const event of client.stream({ skill: 'slow', data: { n: 2 } })) events.push(event)
    expect(statusTexts(events).filter(Boolean)).toEqual(['1/2', '2/2', 'counted to 2'])
  }, 15_000)

  it('stops mid-count when canceled', async () => {
    const events: StreamEvent[] = []
    for await (const event of client.stream({ skill: 'slow', data: { n: 30 } })) {
      events.push(event)
      if (statusTexts([event])[0] === '1/30') {
        const task = events[0]!
        await client.cancel(task.kind === 'task' ? task.id : '')
      }
    }
    const last = events.at(-1)!
    expect(last.kind === 'status-update' && [last.status.state, last.final]).toEqual([
      'canceled',
      true,
    ])
    expect(statusTexts(events).filter(Boolean)).toEqual(['1/30'])
  }, 15_000)
})
