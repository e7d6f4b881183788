/**
 * Every curl block in README.md, run as written (in one shell, in order) against the built
 * server started as `npm start` starts it — only the port differs.
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

describe('README curl examples', () => {
  let server: BuiltServer
  let port: number
  // Not the repo's own .a2a/dev-secret: a user's `npm start` may be using that one.
  const secretFile = join(mkdtempSync(join(tmpdir(), 'a2a-readme-')), 'dev-secret')

  beforeAll(async () => {
    server = await startBuiltServer({ AUTH_DEV_SECRET_FILE: secretFile })
    port = server.port
  }, 60_000)

  afterAll(() => {
    server.stop()
  })

  it('run as written and answer what the README says', async () => {
    const blocks = shellBlocks(readFileSync(`${root}README.md`, 'utf8'))
    expect(blocks.length).toBeGreaterThanOrEqual(8)
    const marker = '@@@ block done @@@'
    const script = blocks.map((block) => `${block}\necho; echo '${marker}'`).join('\n')
    const { stdout } = await run(
      'bash',
      ['-e', '-c', script.replaceAll('localhost:3000', `localhost:${port}`)],
      // `npx a2a token` mints for this dev-mode server from its secret file.
      { env: { ...process.env, AUTH_DEV_SECRET_FILE: secretFile } },
    )
    const [card, review, readBack, stream, multiTurn, cancel, error, a2a] = stdout
      .split(marker)
      .map((s) => s.trim())

    expect(JSON.parse(card!).name).toBe('Code Review Agent')

    const reviewed = JSON.parse(review!)
    expect(reviewed.status.state).toBe('completed')
    const findings = reviewed.artifacts[0].parts[1].data.findings
    expect(findings).toEqual([
      expect.objectContaining({ file: 'app/db.py', line: 2, rule: 'sql-injection' }),
    ])

    const task = JSON.parse(readBack!)
    expect(task.id).toBe(reviewed.id)
    expect(task.history).toHaveLength(2)

    const frames = stream!.split('\n').filter((line) => line.startsWith('data: '))
    expect(JSON.parse(frames.at(-1)!.slice(6))).toMatchObject({
      final: true,
      status: { state: 'completed' },
    })

    const [asked, answered] = jsonDocuments(multiTurn!)
    expect(asked.status.state).toBe('input-required')
    expect(answered.status.state).toBe('completed')
    expect(answered.artifacts[0].parts[1].data.findings[0]).toMatchObject({
      line: 2,
      rule: 'sql-injection',
    })

    const [sent, canceled] = jsonDocuments(cancel!)
    expect(sent.status.state).toBe('input-required')
    expect(canceled.status.state).toBe('canceled')

    expect(JSON.parse(error!).error).toMatchObject({ code: 'INVALID_REQUEST', field: 'id' })

    const [a2aCard, a2aSent] = jsonDocuments(a2a!)
    expect(a2aCard.supportedInterfaces[0]).toMatchObject({ protocolBinding: 'JSONRPC' })
    expect(a2aSent.result.task).toMatchObject({
      status: { state: 'TASK_STATE_COMPLETED' },
      artifacts: [{ parts: [{ text: 'hello' }] }],
    })
  }, 60_000)
})
