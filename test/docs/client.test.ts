/**
 * Every TypeScript example of docs/client.md, run as written (only the port and the package
 * import differ) against the built server started as `npm start` starts it; each must print
 * exactly what the text block after it shows. So must every `a2a` example (```sh), run in one
 * bash script in order; task ids, new in every run, are compared as `<id>`.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { root, startBuiltServer } from '../helpers/built-server.js'
import type { BuiltServer } from '../helpers/built-server.js'
import { TEST_SECRET, token } from '../helpers/auth.js'

const run = promisify(execFile)
const MARKER = '@@@ example done @@@'

/** Each ```ts block with the ```text block that follows it. */
const examples = [
  ...readFileSync(`${root}docs/client.md`, 'utf8').matchAll(
    /```ts\n([\s\S]*?)```\n\nprints\n\n```text\n([\s\S]*?)```/g,
  ),
].map((match) => ({ code: match[1]!, prints: match[2]! }))

/** Each ```sh block (the `a2a` command) with the ```text block that follows it. */
const cliExamples = [
  ...readFileSync(`${root}docs/client.md`, 'utf8').matchAll(
    /```sh\n([\s\S]*?)```\n\nprints\n\n```text\n([\s\S]*?)```/g,
  ),
].map((match) => ({ script: match[1]!, prints: match[2]! }))

const withoutIds = (text: string): string =>
  text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>')

/**
 * The `a2a` examples in one shell, in order (a block may use what an earlier one set). The
 * shell has the server's secret, so `npx a2a token` mints for it as it does in dev mode.
 */
async function runCliExamples(port: number): Promise<string[]> {
  const script = cliExamples
    .map(({ script }) => `${script}echo '${MARKER}'\n`)
    .join('')
    .replaceAll('localhost:3000', `localhost:${port}`)
  const { A2A_TOKEN: _inherited, ...env } = process.env
  const { stdout } = await run('bash', ['-e', '-c', script], {
    cwd: root,
    env: { ...env, AUTH_JWT_SECRET: TEST_SECRET },
  })
  return stdout.split(`${MARKER}\n`)
}

describe('docs/client.md examples', () => {
  let server: BuiltServer
  let port: number
  let dir: string

  let outputs: string[] = []
  let cliOutputs: string[] = []

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'client-docs-'))
    // A known secret in place of dev mode's, so the examples' A2A_TOKEN can be minted here.
    server = await startBuiltServer({ AUTH_JWT_SECRET: TEST_SECRET })
    port = server.port
    ;[outputs, cliOutputs] = await Promise.all([runExamples(), runCliExamples(port)])
  }, 120_000)

  /** One tsx process runs every example in turn (each is its own module), marking where each ends. */
  async function runExamples(): Promise<string[]> {
    const files = examples.map(({ code }, i) => {
      const file = join(dir, `example-${i + 1}.mts`)
      writeFileSync(
        file,
        code
          .replaceAll("from 'a2a-fastify/client'", `from '${root}dist/client/index.js'`)
          .replaceAll("from 'a2a-fastify'", `from '${root}dist/index.js'`)
          .replaceAll('localhost:3000', `localhost:${port}`),
      )
      return file
    })
    const runner = join(dir, 'run.mts')
    writeFileSync(
      runner,
      `for (const file of ${JSON.stringify(files)}) {\n  await import(file)\n  console.log('${MARKER}')\n}\n`,
    )
    const { stdout } = await run(`${root}node_modules/.bin/tsx`, [runner], {
      cwd: root,
      env: { ...process.env, A2A_TOKEN: token() },
    })
    return stdout.split(`${MARKER}\n`)
  }

  afterAll(() => {
    server.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  it('has an example for each section', () => {
    expect(examples.length).toBe(7)
    expect(cliExamples.length).toBe(5)
  })

  it.each(examples.map((example, i) => [i + 1, example] as const))(
    'example %i prints what the docs say',
    (i, { prints }) => {
      expect(outputs[i - 1]).toBe(prints)
    },
  )

  it.each(cliExamples.map((example, i) => [i + 1, example] as const))(
    'a2a example %i prints what the docs say',
    (i, { prints }) => {
      const expected = prints.replaceAll('localhost:3000', `localhost:${port}`)
      expect(withoutIds(cliOutputs[i - 1]!)).toBe(withoutIds(expected))
    },
  )
})
