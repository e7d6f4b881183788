/**
 * The `a2a` commands that call an agent (card, send, stream, get, cancel), run as the built
 * binary against this server listening on a real port: what the user sees on stdout and
 * stderr, and the exit codes docs/client.md documents.
 */
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { A2AClient } from '../../src/index.js'
import { echoSkill } from '../../src/skills/echo/index.js'
import { reviewPrSkill } from '../../src/skills/review-pr/index.js'
import { defineSkill } from '../../src/skills/skill.js'
import { testApp } from '../helpers/app.js'
import { token } from '../helpers/auth.js'
import { askSkill, chunkSkill, slowSkill, throwingSkill } from '../helpers/skills.js'
import { freePort } from '../client/agents.js'
import { ensureBuilt, killRunning, runCli, startCli, withoutIds } from './run-cli.js'

/** Answers with an artifact holding the files it was sent, as it received them. */
const filesSkill = defineSkill({
  id: 'files',
  name: 'Files',
  description: 'returns the files it is sent',
  tags: ['test'],
  async execute(ctx) {
    await ctx.emitArtifact({
      name: 'received',
      parts: ctx.input.files.map((file) => ({ kind: 'file' as const, file })),
    })
    return ctx.complete(`${ctx.input.files.length} file(s)`)
  },
})

let app: FastifyInstance
let url: string
let dir: string
const env = { A2A_TOKEN: token() }

beforeAll(async () => {
  ensureBuilt()
  dir = mkdtempSync(join(tmpdir(), 'a2a-cli-'))
  const port = await freePort()
  url = `http://127.0.0.1:${port}`
  app = await testApp(
    {
      PUBLIC_URL: url,
      DEFAULT_SKILL: 'echo',
      MAX_FILE_BYTES: '2048',
      AGENT_NAME: 'CLI Test Agent',
    },
    {
      skills: [
        echoSkill,
        askSkill,
        chunkSkill,
        slowSkill(),
        throwingSkill,
        filesSkill,
        reviewPrSkill,
      ],
    },
  )
  await app.listen({ host: '127.0.0.1', port })
}, 200_000)
afterAll(async () => {
  killRunning()
  await app.close()
  rmSync(dir, { recursive: true, force: true })
})

describe.concurrent('a2a --help', () => {
  it('lists every command with what it does', async () => {
    const run = await runCli(['--help'])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain("  card    read an agent's card: name, dialect, skills\n")
    expect(run.stdout).toContain('  stream  send a message and follow the task live\n')
    expect(run.stdout).toContain('  token   mint a bearer token (HS256) for this server\n')
  })

  it('--version prints the package version', async () => {
    const manifest = JSON.parse(
      readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
    )
    for (const flag of ['--version', '-V']) {
      expect(await runCli([flag])).toMatchObject({ code: 0, stdout: `${manifest.version}\n` })
    }
  })

  it('shows each talking command its own name in the piped-answer example', async () => {
    for (const command of ['send', 'stream']) {
      const run = await runCli([command, '--help'])
      expect(run.code).toBe(0)
      expect(run.stdout).toContain(`(typed, or piped: echo red | a2a ${command} …)`)
    }
  })
})

describe.concurrent('a2a card', () => {
  it('shows the name, description, version, dialect and skills with their tags', async () => {
    const run = await runCli(['card', url], { env })
    expect(run.code).toBe(0)
    expect(run.stdout).toBe(
      [
        'CLI Test Agent 1.0.0',
        'Reviews pull requests for bugs, style violations, and security issues',
        '',
        `Dialect:   jsonrpc-1.0 at ${url}/a2a/jsonrpc`,
        'Streaming: yes',
        `Card:      ${url}/.well-known/agent-card.json`,
        '',
        'Skills (7):',
        '  echo       Echo - Replies with the text and data it was sent [utility, testing]',
        '  ask        Ask - a test skill [test]',
        '  chunks     Chunks - a test skill [test]',
        '  slow       Slow - a test skill [test]',
        '  throws     Throws - a test skill [test]',
        '  files      Files - returns the files it is sent [test]',
        '  review-pr  Review Pull Request - Analyzes a PR diff and returns structured findings with severity ratings [code-review, security, quality]',
        '',
      ].join('\n'),
    )
  })

  it('--json prints the card as the agent sent it; --dialect seed reads the seed card', async () => {
    const json = await runCli(['card', url, '--json'], { env })
    expect(json.code).toBe(0)
    expect(JSON.parse(json.stdout)).toMatchObject({
      name: 'CLI Test Agent',
      supportedInterfaces: expect.arrayContaining([
        { url: `${url}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      ]),
    })
    const seed = await runCli(['card', url, '--dialect', 'seed'], { env })
    expect(seed.stdout).toContain(`Dialect:   seed at ${url}\n`)
    const v03 = await runCli(['card', url, '--dialect', 'jsonrpc-0.3'], { env })
    expect(v03.stdout).toContain(`Dialect:   jsonrpc-0.3 at ${url}/a2a/jsonrpc\n`)
  })

  it('a card whose endpoint is a plain web server exits 76, saying the answer is no A2A error', async () => {
    const card = await (await fetch(`${url}/.well-known/agent.json`)).text()
    const web = createServer((request, response) => {
      if (request.method === 'GET') {
        response.writeHead(200, { 'content-type': 'application/json' })
        response.end(card.replaceAll(url, site))
        return
      }
      response.writeHead(501, { 'content-type': 'text/html' })
      response.end('<html><head><title>Error response</title></head><body></body></html>')
    })
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve))
    const site = `http://127.0.0.1:${(web.address() as AddressInfo).port}`
    try {
      const run = await runCli(['send', site, '--dialect', 'seed', '--skill', 'echo', 'hi'], {
        env,
      })
      expect(run.stderr).toBe(
        'a2a send: HTTP 501 from something in front of the agent (a proxy, a web server): an HTML page, "Error response"\n',
      )
      expect(run.code).toBe(76)
    } finally {
      web.close()
    }
  })

  it('a URL where no agent answers, but a web server does, exits 76 in one line', async () => {
    const web = createServer((_request, response) => {
      response.writeHead(404, { 'content-type': 'text/html' })
      response.end(
        '<!DOCTYPE html>\n<html><head><title>Not Found</title></head>\n<body></body></html>',
      )
    })
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve))
    const site = `http://127.0.0.1:${(web.address() as AddressInfo).port}`
    try {
      const run = await runCli(['card', site], { env })
      expect(run.code).toBe(76)
      expect(run.stderr).toBe(
        `a2a card: Agent Card at ${site}/.well-known/agent-card.json or ${site}/.well-known/agent.json is not usable: HTTP 404 from something in front of the agent (a proxy, a web server): an HTML page, "Not Found"\n`,
      )
    } finally {
      web.close()
    }
  })
})

describe.concurrent('a2a send', () => {
  it('prints the artifacts (text as text, data as JSON) and the final state', async () => {
    const run = await runCli(['send', url, '--skill', 'echo', '--data', '{"n":1}', 'hello'], {
      env,
    })
    expect(run.code).toBe(0)
    expect(withoutIds(run.stdout)).toBe(
      'task <id>\nartifact echo:\n  hello\n  {\n    "n": 1\n  }\n[completed] hello\n',
    )
    expect(run.stderr).toBe('')
  })

  it('--json prints the task', async () => {
    const run = await runCli(['send', url, '--json', 'hi'], { env })
    expect(run.code).toBe(0)
    const task = JSON.parse(run.stdout)
    expect(task).toMatchObject({ kind: 'task', status: { state: 'completed' } })
    expect(task.artifacts[0].parts).toEqual([{ kind: 'text', text: 'hi' }])
  })

  it('--file sends the bytes with the type from the extension; files print by name, type, size', async () => {
    const note = join(dir, 'note.md')
    writeFileSync(note, '# hello\n')
    const blob = join(dir, 'blob')
    writeFileSync(blob, Buffer.from([0, 1, 2, 255]))
    const run = await runCli(
      ['send', url, '--skill', 'files', '--file', note, '--file', blob, 'two files'],
      { env },
    )
    expect(run.code).toBe(0)
    expect(withoutIds(run.stdout)).toBe(
      [
        'task <id>',
        'artifact received:',
        '  file note.md (text/markdown, 8 bytes)',
        '  file blob (application/octet-stream, 4 bytes)',
        '[completed] 2 file(s)',
        '',
      ].join('\n'),
    )
    const json = await runCli(
      ['send', url, '--skill', 'files', '--file', blob, '--mime', 'image/x-test', '--json'],
      { env },
    )
    expect(JSON.parse(json.stdout).artifacts[0].parts[0].file).toEqual({
      name: 'blob',
      mimeType: 'image/x-test',
      bytes: Buffer.from([0, 1, 2, 255]).toString('base64'),
    })
  })

  it.each(['change.patch', 'change.diff'])(
    '--file sends %s to review-pr, which reviews it',
    async (name) => {
      const file = join(dir, name)
      writeFileSync(
        file,
        [
          '--- a/app/db.py',
          '+++ b/app/db.py',
          '@@ -8,2 +8,2 @@',
          ' def find_user(cur, name):',
          '-    cur.execute("SELECT id FROM users WHERE name = %s", (name,))',
          `+    cur.execute(f"SELECT id FROM users WHERE name = '{name}'")`,
          '',
        ].join('\n'),
      )
      const run = await runCli(['send', url, '--skill', 'review-pr', '--file', file], { env })
      expect(run.stderr).toBe('')
      expect(run.code).toBe(0)
      expect(run.stdout).toContain('app/db.py:9 [critical] SQL query built from values')
      expect(run.stdout).toMatch(/\[completed\] 1 finding in 1 file: 1 critical\n$/)
    },
  )

  it("a file over the agent's limit is the agent's error, with its code: exit 2", async () => {
    const big = join(dir, 'big.txt')
    writeFileSync(big, 'x'.repeat(4096))
    const run = await runCli(['send', url, '--skill', 'files', '--file', big], { env })
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(
      /^a2a send: the agent answered -32602 INVALID_PARAMS \(HTTP 200\): .*limit of 2048/,
    )
  })

  it('a task that fails exits 1 and shows the failed state', async () => {
    const run = await runCli(['send', url, '--skill', 'throws', 'boom'], { env })
    expect(run.code).toBe(1)
    expect(withoutIds(run.stdout)).toMatch(/^task <id>\n\[failed\]/)
    expect(run.stdout).not.toContain('/etc/passwd')
  })
})

describe.concurrent('a2a stream', () => {
  it('shows each state and each artifact chunk as it arrives, in order', async () => {
    const run = await runCli(['stream', url, '--skill', 'chunks', 'go'], { env })
    expect(run.code).toBe(0)
    expect(withoutIds(run.stdout)).toBe(
      [
        'task <id>',
        '[submitted]',
        '[working]',
        'artifact story:',
        '  one ',
        'artifact story (more):',
        '  two ',
        'artifact story (more):',
        '  three',
        '[completed]',
        '',
      ].join('\n'),
    )
  })

  it('--json prints one event per line, from the task to the final status', async () => {
    const run = await runCli(['stream', url, '--skill', 'chunks', '--json', 'go'], { env })
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(events.map((event) => event.kind)).toEqual([
      'task',
      'status-update',
      'artifact-update',
      'artifact-update',
      'artifact-update',
      'status-update',
    ])
    expect(events.at(-1)).toMatchObject({ final: true, status: { state: 'completed' } })
  })

  it('a stream canceled from another terminal exits 1 at [canceled]', async () => {
    const stream = startCli(['stream', url, '--skill', 'slow', 'wait'], { env })
    for (let i = 0; i < 300 && !stream.stdout().includes('[working] started'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const taskId = /^task (\S+)/.exec(stream.stdout())![1]!
    const cancel = await runCli(['cancel', url, taskId], { env })
    expect(cancel.code).toBe(0)
    expect(cancel.stdout).toBe(`task ${taskId}\n[canceled]\n`)
    const run = await stream.done
    expect(run.code).toBe(1)
    expect(run.stdout.trim().split('\n').at(-1)).toBe('[canceled]')
  })
})

describe('a2a send, when the caller has as many streams open as the agent allows', () => {
  it('sends and waits instead of streaming, and says so', async () => {
    const port = await freePort()
    const capped = `http://127.0.0.1:${port}`
    const agent = await testApp(
      { PUBLIC_URL: capped, MAX_STREAMS_PER_CALLER: '1' },
      { skills: [echoSkill, slowSkill()] },
    )
    await agent.listen({ host: '127.0.0.1', port })
    const holder = startCli(['stream', capped, '--skill', 'slow', 'wait'], { env })
    try {
      await waitForOutput(holder, /\[working\] started\n/)
      const run = await runCli(['send', capped, '--skill', 'echo', 'hello'], { env })
      expect(run.stderr).toBe(
        'a2a: Code Review Agent has as many of your streams open as it allows; sending and waiting instead\n',
      )
      expect(run.code).toBe(0)
      expect(withoutIds(run.stdout)).toMatch(/^task <id>\n[\s\S]*hello[\s\S]*\[completed\]/)
    } finally {
      holder.child.kill('SIGINT')
      await holder.done
      await agent.close()
    }
  })
})

/** Waits until the running command's stdout holds `pattern`. */
async function waitForOutput(run: ReturnType<typeof startCli>, pattern: RegExp) {
  for (let i = 0; i < 200 && !pattern.test(run.stdout()); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return pattern.exec(run.stdout())
}

describe.concurrent('Ctrl-C: the task goes on, and the command says how to stop it', () => {
  it.each([['jsonrpc'], ['seed']])(
    'send (%s) prints the task id at once, while the task runs',
    async (dialect) => {
      const send = startCli(['send', url, '--dialect', dialect, '--skill', 'slow', 'wait'], {
        env,
      })
      const taskId = (await waitForOutput(send, /^task (\S+)\n/))?.[1]
      expect(taskId).toBeDefined()
      // Printed before the task ends (in the seed dialect even before the agent has it).
      const client = await A2AClient.connect(url, { token: env.A2A_TOKEN })
      const started = async () => {
        const task = await client.get(taskId!).catch(() => undefined)
        return task?.status.state === 'working'
      }
      for (let i = 0; i < 100 && !(await started()); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      expect(await started()).toBe(true)
      send.child.kill('SIGINT')
      const run = await send.done
      expect(run.signal).toBe('SIGINT')
      expect(run.stdout).toBe(`task ${taskId}\n`)
      expect(run.stderr).toBe(
        `a2a: task ${taskId} is still running on the agent; stop it with: a2a cancel ${url} ${taskId}\n`,
      )
      // Not canceled by the CLI: the command it names does it.
      const cancel = await runCli(['cancel', url, taskId!], { env })
      expect(cancel).toMatchObject({ code: 0, stdout: `task ${taskId}\n[canceled]\n` })
    },
    30_000,
  )

  it('stream says which task goes on when it is stopped', async () => {
    const stream = startCli(['stream', url, '--skill', 'slow', 'wait'], { env })
    await waitForOutput(stream, /\[working\] started\n/)
    const taskId = /^task (\S+)/.exec(stream.stdout())![1]!
    stream.child.kill('SIGINT')
    const run = await stream.done
    expect(run.signal).toBe('SIGINT')
    expect(run.stderr).toBe(
      `a2a: task ${taskId} is still running on the agent; stop it with: a2a cancel ${url} ${taskId}\n`,
    )
    expect((await runCli(['cancel', url, taskId], { env })).code).toBe(0)
  }, 30_000)
})

describe.concurrent('input-required: the answer comes from stdin', () => {
  it('send asks, reads the answer piped to stdin, and follows the task to the end', async () => {
    const run = await runCli(['send', url, '--skill', 'ask', 'paint it'], { env, stdin: 'red\n' })
    expect(run.code).toBe(0)
    expect(withoutIds(run.stdout)).toBe(
      'task <id>\n[input-required] Which colour?\nartifact answer:\n  colour: red\n[completed]\n',
    )
    expect(run.stderr).toBe('answer> red\n')
  })

  it.each([['jsonrpc'], ['seed']])(
    'stream (%s) asks, continues with the answer, and keeps following',
    async (dialect) => {
      const run = await runCli(['stream', url, '--dialect', dialect, '--skill', 'ask', 'paint'], {
        env,
        stdin: '\nblue\n',
      })
      expect(run.code).toBe(0)
      const lines = withoutIds(run.stdout).split('\n')
      expect(lines.slice(0, 4)).toEqual([
        'task <id>',
        '[submitted]',
        '[working]',
        '[input-required] Which colour?',
      ])
      expect(lines.slice(-4)).toEqual(['artifact answer:', '  colour: blue', '[completed]', ''])
    },
  )

  it('--no-input prints the question and exits 3 with how to answer; --task answers later', async () => {
    const asked = await runCli(['send', url, '--skill', 'ask', '--no-input', 'paint'], { env })
    expect(asked.code).toBe(3)
    expect(withoutIds(asked.stdout)).toBe('task <id>\n[input-required] Which colour?\n')
    const taskId = /^task (\S+)/.exec(asked.stdout)![1]!
    expect(asked.stderr).toBe(
      `a2a: task ${taskId} waits for input. Answer it with:\n  a2a send ${url} --task ${taskId} "<answer>"\n`,
    )
    const answered = await runCli(['send', url, '--task', taskId, 'green'], { env })
    expect(answered.code).toBe(0)
    expect(answered.stdout).toBe(`task ${taskId}\nartifact answer:\n  colour: green\n[completed]\n`)
  })

  it('stdin that ends without an answer exits 3 too', async () => {
    const run = await runCli(['send', url, '--skill', 'ask', 'paint'], { env, stdin: '' })
    expect(run.code).toBe(3)
    expect(run.stderr).toContain('waits for input')
  })
})

describe.concurrent('a2a get and a2a cancel', () => {
  it("get shows the task as it is; an unknown task is the agent's TASK_NOT_FOUND, exit 2", async () => {
    const sent = JSON.parse((await runCli(['send', url, '--json', 'keep me'], { env })).stdout)
    const got = await runCli(['get', url, sent.id], { env })
    expect(got.code).toBe(0)
    expect(got.stdout).toBe(`task ${sent.id}\nartifact echo:\n  keep me\n[completed] keep me\n`)
    const json = await runCli(['get', url, sent.id, '--json'], { env })
    expect(JSON.parse(json.stdout)).toMatchObject({ id: sent.id, status: { state: 'completed' } })

    const missing = '6f1f7d34-5c4e-4b8f-9d57-1c1a2f0e9b11'
    const unknown = await runCli(['get', url, missing, '--dialect', 'seed'], { env })
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toBe(
      `a2a get: the agent answered TASK_NOT_FOUND (HTTP 404): Task ${missing} not found\n`,
    )
  }, 30_000) // four CLI processes, one after another, beside the other files' processes

  it('cancel cancels a running task; a finished one is TASK_NOT_CANCELABLE, exit 2', async () => {
    const client = await A2AClient.connect(url, { token: env.A2A_TOKEN })
    const task = await client.send({ skill: 'slow', text: 'wait' }, { blocking: false })
    const canceled = await runCli(['cancel', url, task.kind === 'task' ? task.id : ''], { env })
    expect(canceled.code).toBe(0)
    expect(withoutIds(canceled.stdout)).toBe('task <id>\n[canceled]\n')
    const again = await runCli(['cancel', url, task.kind === 'task' ? task.id : ''], { env })
    expect(again.code).toBe(2)
    expect(again.stderr).toMatch(/^a2a cancel: the agent answered -32002 TASK_NOT_CANCELABLE/)
  })
})

describe.concurrent('failures: one line on stderr, a documented exit code, no stack trace', () => {
  it("a bad token exits 77 with the agent's code and message", async () => {
    const run = await runCli(['send', url, 'hi', '--token', 'not-a-token'], { env: {} })
    expect(run.code).toBe(77)
    expect(run.stderr).toBe(
      'a2a send: the agent answered -32030 UNAUTHENTICATED (HTTP 401): The token is malformed\n',
    )
  })

  it('no token at all exits 77 and says where a token comes from', async () => {
    const run = await runCli(['get', url, '6f1f7d34-5c4e-4b8f-9d57-1c1a2f0e9b11'], { env: {} })
    expect(run.code).toBe(77)
    expect(run.stderr).toContain('UNAUTHENTICATED (HTTP 401)')
    expect(run.stderr).toContain('set A2A_TOKEN')
  })

  it('an agent nobody listens for exits 69', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`
    const run = await runCli(['send', closed, 'hi'], { env })
    expect(run.code).toBe(69)
    expect(run.stderr).toMatch(/^a2a send: cannot reach the agent: GET .*agent-card\.json failed/)
    expect(run.stderr).not.toMatch(/\n\s+at /)
  })

  it('a 502, 503 or 504 page from a proxy in front of the agent exits 75: try again later', async () => {
    const card = await (await fetch(`${url}/.well-known/agent-card.json`)).text()
    let status = 502
    let cardToo = false
    const proxy = createServer((request, response) => {
      if (request.method === 'GET' && !cardToo) {
        response.writeHead(200, { 'content-type': 'application/json' })
        response.end(card.replaceAll(url, site))
        return
      }
      response.writeHead(status, { 'content-type': 'text/html' })
      response.end(`<html><head><title>${status} Gateway</title></head><body></body></html>`)
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    const site = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
    const page = (code: number) =>
      `HTTP ${code} from something in front of the agent (a proxy, a web server): an HTML page, "${code} Gateway"`
    try {
      for (const code of [502, 503, 504]) {
        status = code
        const run = await runCli(['get', site, '6f1f7d34-5c4e-4b8f-9d57-1c1a2f0e9b11'], { env })
        expect(run.stderr).toBe(`a2a get: ${page(code)}\n`)
        expect(run.code).toBe(75)
      }
      // The card behind the same proxy, as the first thing every command reads.
      ;[status, cardToo] = [502, true]
      const run = await runCli(['card', site], { env })
      expect(run.stderr).toBe(
        `a2a card: Agent Card at ${site}/.well-known/agent-card.json is not usable: ${page(502)}\n`,
      )
      expect(run.code).toBe(75)
    } finally {
      proxy.close()
    }
  })

  it.each([
    [['send'], 'the agent URL is missing'],
    [
      ['send', 'URL', '--bogus'],
      'unknown option --bogus (a text that starts with "-" goes after "--": -- "--bogus")',
    ],
    [['send', 'URL', '--data', '[1]'], '--data must be a JSON object'],
    [['send', 'URL', '--skill', 'translate', 'hi'], 'it offers: echo, ask, chunks'],
    [['get', 'URL'], '<taskId> is missing'],
    [['cancel', 'URL'], '<taskId> is missing'],
    [['card', 'localhost:3000'], 'is not an http or https URL'],
    [['send', 'URL', ''], 'the text is empty (an empty "$(…)"?), and there is no --data or --file'],
    [['send', 'URL', '--token', '', 'hi'], '--token is empty: give a token, or leave it out'],
  ])('usage error %j exits 64', async (args, message) => {
    const run = await runCli(
      args.map((arg) => (arg === 'URL' ? url : arg)),
      { env },
    )
    expect(run.code).toBe(64)
    expect(run.stderr).toContain(message)
    expect(run.stdout).toBe('')
  })

  it('--timeout bounds the wait for an answer: exit 75', async () => {
    const run = await runCli(['send', url, '--skill', 'slow', '--timeout', '300', 'wait'], { env })
    expect(run.code).toBe(75)
    // The task does not end in time (or, on a loaded machine, already the card or the send
    // times out).
    expect(run.stderr).toMatch(
      /^(a2a send: (POST|GET) \S+ timed out after 300 ms|a2a: task (\S+) has not ended after 300 ms\. See it later with:\n {2}a2a get \S+ \3)\n$/,
    )
  })

  it('a seed send that times out names the task that may still be running', async () => {
    const run = await runCli(
      ['send', url, '--dialect', 'seed', '--skill', 'slow', '--timeout', '1500', 'wait'],
      { env },
    )
    expect(run.code).toBe(75)
    const id = /a2a: task ([0-9a-f-]{36}) may still be running/.exec(run.stderr)?.[1]
    expect(run.stderr).toBe(
      `a2a: task ${id} may still be running. See it later with:\n  a2a get ${url} ${id}\n` +
        `a2a send: POST ${url}/tasks/send timed out after 1500 ms\n`,
    )
    const seen = await runCli(['get', url, '--dialect', 'seed', id!], { env })
    expect(seen.code).toBe(0)
    expect(seen.stdout).toContain('working')
  })

  it('a --file that cannot be read exits 66', async () => {
    const run = await runCli(['send', url, '--file', join(dir, 'missing.txt')], { env })
    expect(run.code).toBe(66)
    expect(run.stderr).toContain('ENOENT')
  })
})

describe('a2a send, when the agent answers before the task has ended', () => {
  // The agent's blocking send gives up after 100 ms: a slower task comes back still working.
  let impatient: FastifyInstance
  let impatientUrl: string

  beforeAll(async () => {
    const port = await freePort()
    impatientUrl = `http://127.0.0.1:${port}`
    impatient = await testApp(
      { PUBLIC_URL: impatientUrl, DEFAULT_SKILL: 'echo', SEND_WAIT_MS: '100' },
      { skills: [echoSkill, slowSkill(1_000), { ...slowSkill(), id: 'forever' }] },
    )
    await impatient.listen({ host: '127.0.0.1', port })
  })
  afterAll(() => impatient.close())

  // A blocking send (the seed dialect; JSON-RPC to an agent that does not stream).
  it('says at once which task it waits for, then shows it once it ends', async () => {
    const run = await runCli(
      ['send', impatientUrl, '--dialect', 'seed', '--skill', 'slow', 'wait'],
      { env },
    )
    expect(run.code).toBe(0)
    expect(withoutIds(run.stderr)).toBe(
      'a2a: task <id> is working; waiting for it to end (at most 60000 ms)\n',
    )
    expect(run.stdout.trim().split('\n').at(-1)).toBe('[completed] slow done')
  })

  it('stops waiting after --timeout: exit 75, with how to look at the task later', async () => {
    const run = await runCli(
      ['send', impatientUrl, '--dialect', 'seed', '--skill', 'forever', '--timeout', '1500', 'w'],
      { env },
    )
    expect(run.code).toBe(75)
    expect(run.stdout.trim().split('\n').at(-1)).toBe('[working] started')
    const taskId = /task (\S+) is working/.exec(run.stderr)?.[1]
    expect(run.stderr).toBe(
      `a2a: task ${taskId} is working; waiting for it to end (at most 1500 ms)\n` +
        `a2a: task ${taskId} has not ended after 1500 ms. See it later with:\n` +
        `  a2a get ${impatientUrl} ${taskId}\n`,
    )
  })

  // JSON-RPC to a streaming agent: send follows the task's stream, whatever the agent's wait.
  it('in JSON-RPC follows the stream to the end, or for at most --timeout', async () => {
    const done = await runCli(['send', impatientUrl, '--skill', 'slow', 'wait'], { env })
    expect(done.code).toBe(0)
    expect(done.stderr).toBe('')
    expect(withoutIds(done.stdout)).toBe('task <id>\n[completed] slow done\n')

    const run = await runCli(
      ['send', impatientUrl, '--skill', 'forever', '--timeout', '1500', 'wait'],
      { env },
    )
    expect(run.code).toBe(75)
    const taskId = /^task (\S+)\n/.exec(run.stdout)?.[1]
    expect(run.stdout).toBe(`task ${taskId}\n[working] started\n`)
    expect(run.stderr).toBe(
      `a2a: task ${taskId} has not ended after 1500 ms. See it later with:\n` +
        `  a2a get ${impatientUrl} ${taskId}\n`,
    )
  })
})
