/**
 * Every TypeScript example of docs/multi-agent.md, run as written (only the ports and the
 * package import differ: free ports instead of 4101–4103); each must print exactly what the
 * text block after it shows. The examples start their own agents.
 */
import { execFile, execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../client/agents.js'

const root = new URL('../../', import.meta.url).pathname
const run = promisify(execFile)

const examples = [
  ...readFileSync(`${root}docs/multi-agent.md`, 'utf8').matchAll(
    /```ts\n([\s\S]*?)```\n\nprints\n\n```text\n([\s\S]*?)```/g,
  ),
].map((match) => ({ code: match[1]!, prints: match[2]! }))

describe('docs/multi-agent.md examples', () => {
  let dir: string

  beforeAll(() => {
    if (!existsSync(`${root}dist/registry/index.js`)) {
      execFileSync('npm', ['run', 'build'], { cwd: root })
    }
    dir = mkdtempSync(join(tmpdir(), 'multi-agent-docs-'))
  }, 120_000)

  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('has the worked example and the orchestrate skill example', () => {
    expect(examples.length).toBe(2)
  })

  it.each(examples.map((example, i) => [i + 1, example] as const))(
    'example %i prints what the docs say',
    async (i, { code, prints }) => {
      let source = code.replaceAll("from 'a2a-fastify'", `from '${root}dist/index.js'`)
      for (const port of ['4101', '4102', '4103']) {
        source = source.replaceAll(port, String(await freePort()))
      }
      const file = join(dir, `example-${i}.mts`)
      writeFileSync(file, source)
      const { stdout } = await run(`${root}node_modules/.bin/tsx`, [file], {
        cwd: root,
        timeout: 30_000,
      })
      expect(stdout).toBe(prints)
    },
    40_000,
  )
})
