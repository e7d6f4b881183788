/**
 * The curl blocks of docs/protocol.md ("Try it with curl"), run as written (in one shell, in
 * order) against the built server started as `npm start` starts it; only the port differs.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { root, startBuiltServer } from '../helpers/built-server.js'
import type { BuiltServer } from '../helpers/built-server.js'
import { jsonDocuments, shellBlocks } from '../helpers/doc-blocks.js'

const run = promisify(execFile)

describe('docs/protocol.md curl examples', () => {
  let server: BuiltServer
  // Not the repo's own .a2a/dev-secret: a user's `npm start` may be using that one.
  const secretFile = join(mkdtempSync(join(tmpdir(), 'a2a-protocol-doc-')), 'dev-secret')

  beforeAll(async () => {
    server = await startBuiltServer({ AUTH_DEV_SECRET_FILE: secretFile })
  }, 60_000)
  afterAll(() => server.stop())

  it('run as written and answer what the text says', async () => {
    const markdown = readFileSync(`${root}docs/protocol.md`, 'utf8')
    const section = markdown.slice(
      markdown.indexOf('### Try it with curl'),
      markdown.indexOf('### Version routing'),
    )
    const blocks = shellBlocks(section)
    expect(blocks).toHaveLength(3)
    const marker = '@@@ block done @@@'
    const script = blocks.map((block) => `${block}\necho; echo '${marker}'`).join('\n')
    const { stdout } = await run(
      'bash',
      ['-e', '-c', script.replaceAll('localhost:3000', `localhost:${server.port}`)],
      { env: { ...process.env, AUTH_DEV_SECRET_FILE: secretFile } },
    )
    const [jsonRpc, rest, streams] = stdout.split(marker).map((s) => s.trim())

    const [got, listed] = jsonDocuments(jsonRpc!)
    expect(got.result).toMatchObject({
      status: { state: 'TASK_STATE_COMPLETED' },
      artifacts: [{ name: 'echo', parts: [{ text: 'hello' }] }],
    })
    expect(got.result.history).toHaveLength(1)
    expect(listed.result.tasks.map((task: { id: string }) => task.id)).toEqual([got.result.id])

    const [canceled, read] = jsonDocuments(rest!)
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED')
    expect(read).toMatchObject({ id: canceled.id, status: { state: 'TASK_STATE_CANCELED' } })
    expect(read.history).toHaveLength(1)

    const frames = streams!
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)).result)
    expect(Object.keys(frames[0])).toEqual(['task'])
    expect(frames.at(-1)).toMatchObject({
      statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' } },
    })
    const [v03] = jsonDocuments(streams!.slice(streams!.lastIndexOf('\n{')))
    expect(v03.result).toMatchObject({ kind: 'task', status: { state: 'completed' } })
  }, 60_000)
})
