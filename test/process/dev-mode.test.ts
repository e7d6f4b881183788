/**
 * Dev mode and its refusal in production, as a person starts the built server: without AUTH_*
 * settings it prints a token that works (and keeps the 0600 secret file `a2a token` uses, which
 * every dev server started in the same directory shares); in
 * production it exits 78 naming the setting. `a2a token` runs as the built binary.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { freePort } from '../helpers/free-port.js'
import { exited, root, useServerProcesses } from '../helpers/server-process.js'

const run = promisify(execFile)
const dir = mkdtempSync(join(tmpdir(), 'a2a-dev-'))
const secretFile = join(dir, 'nested', 'dev-secret')
const { spawnServer: spawnBuilt } = useServerProcesses()
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The built server with `env` and no AUTH_* setting; `exited` is its exit code, once it ends. */
function spawnServer(env: Record<string, string>) {
  // An empty variable is unset: the helper's test secret is taken away.
  const server = spawnBuilt({ HOST: '127.0.0.1', AUTH_JWT_SECRET: '', ...env })
  return {
    ...server,
    get exited() {
      return exited(server.child, 15_000).then((exit) => exit.code)
    },
  }
}

async function waitFor<T>(probe: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = probe()
    if (value !== undefined) return value
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`timed out waiting for ${what}`)
}

describe('dev mode (no AUTH_* settings, NODE_ENV development)', () => {
  it('warns when it listens where other machines reach it', async () => {
    const server = spawnServer({
      NODE_ENV: 'development',
      HOST: '0.0.0.0',
      PORT: String(await freePort()),
      AUTH_DEV_SECRET_FILE: relative(root, secretFile),
    })
    const line = await waitFor(
      () =>
        server
          .stdout()
          .split('\n')
          .find((l) => l.includes('DEV MODE on HOST=')),
      'the warning',
    )
    expect(JSON.parse(line)).toMatchObject({
      level: 40,
      msg: 'DEV MODE on HOST=0.0.0.0: other machines can reach this development server; a deployment sets NODE_ENV=production and a key (AUTH_JWT_SECRET, AUTH_JWT_PUBLIC_KEY or AUTH_JWKS_URL)',
    })
    // Said as it starts, before it listens: stop it once it is up (its DEV MODE line, once listening).
    await waitFor(() => (server.stdout().includes('"msg":"DEV MODE:') ? true : undefined), 'up')
    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
  })

  it('prints a ready token and a curl line; the token works, no token is 401', async () => {
    const port = await freePort()
    const server = spawnServer({
      NODE_ENV: 'development',
      PORT: String(port),
      // Relative to the directory it starts in; the banner names it in full.
      AUTH_DEV_SECRET_FILE: relative(root, secretFile),
    })
    const token = await waitFor(
      () => /Token \(1 hour[^)]*\): (\S+)/.exec(server.stderr())?.[1],
      'the dev token',
    )
    expect(server.stderr()).toContain(
      `DEV MODE - tokens are signed with the dev secret in ${secretFile} `,
    )
    expect(server.stderr()).toMatch(/curl -H "Authorization: Bearer \S+" http:\/\/localhost:\d+\//)
    // A narrower token's example names a skill this agent serves (its default skill).
    expect(server.stderr()).toContain(
      'Mint more with: npx a2a token --sub alice --scope a2a:invoke --scope skill:review-pr',
    )
    // The structured log says so too, for whoever reads the logs rather than the terminal.
    await waitFor(() => (server.stdout().includes('DEV MODE') ? true : undefined), 'the log line')
    // On loopback, that is all it says.
    expect(server.stdout()).not.toContain('DEV MODE on HOST=')
    const base = `http://127.0.0.1:${port}`
    const ok = await fetch(`${base}/a2a/rest/tasks`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(ok.status).toBe(200)
    const refused = await fetch(`${base}/a2a/rest/tasks`)
    expect(refused.status).toBe(401)

    // The secret file is private, and `a2a token` (the built binary) mints for this server.
    expect(statSync(secretFile).mode & 0o777).toBe(0o600)
    const minted = await run(
      join(root, 'dist', 'cli', 'main.js'),
      ['token', '--sub', 'alice', '--scope', 'a2a:invoke', '--scope', 'skill:echo'],
      {
        env: { PATH: process.env.PATH ?? '', AUTH_DEV_SECRET_FILE: secretFile },
      },
    )
    const alice = minted.stdout.trim()
    const sent = await fetch(`${base}/tasks/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${alice}` },
      body: JSON.stringify({
        id: crypto.randomUUID(),
        message: {
          role: 'user',
          parts: [{ type: 'text', text: 'hi' }],
          metadata: { skillId: 'echo' },
        },
      }),
    })
    expect(sent.status).toBe(200)
    expect(((await sent.json()) as { status: { state: string } }).status.state).toBe('completed')

    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
    // Kept for the next start: a token minted now still works after a restart.
    expect(existsSync(secretFile)).toBe(true)
  })

  it('servers started in one directory sign with one secret, and a failed start leaves it', async () => {
    const shared = join(dir, 'shared', 'dev-secret')
    const env = { NODE_ENV: 'development', AUTH_DEV_SECRET_FILE: shared }
    const ports = [await freePort(), await freePort()]
    const servers = ports.map((port) => spawnServer({ ...env, PORT: String(port) }))
    for (const server of servers) {
      await waitFor(() => /Token \(1 hour/.exec(server.stderr())?.[0], 'the dev token')
    }
    // The same command once more, by mistake: the port is taken, and the secret stays.
    const again = spawnServer({ ...env, PORT: String(ports[0]) })
    expect(await again.exited).toBe(1)
    expect(again.stderr()).toContain('EADDRINUSE')

    const minted = await run(join(root, 'dist', 'cli', 'main.js'), ['token'], {
      env: { PATH: process.env.PATH ?? '', AUTH_DEV_SECRET_FILE: shared },
    })
    for (const port of ports) {
      const answer = await fetch(`http://127.0.0.1:${port}/a2a/rest/tasks`, {
        headers: { authorization: `Bearer ${minted.stdout.trim()}` },
      })
      expect(answer.status).toBe(200)
    }
    for (const server of servers) server.child.kill('SIGTERM')
    expect(await Promise.all(servers.map((server) => server.exited))).toEqual([0, 0])
  })

  it('exits 78 naming AUTH_DEV_SECRET_FILE when it cannot make the secret file', async () => {
    // A directory where a file is: mkdir fails as it does in a read-only one.
    const blocked = join(dir, 'not-a-directory')
    writeFileSync(blocked, '')
    const file = join(blocked, 'dev-secret')
    const server = spawnServer({
      NODE_ENV: 'development',
      PORT: String(await freePort()),
      AUTH_DEV_SECRET_FILE: file,
    })
    expect(await server.exited).toBe(78)
    expect(server.stderr()).toContain(`AUTH_DEV_SECRET_FILE: cannot make ${file} (`)
    expect(server.stderr()).toContain(
      'dev mode keeps its secret there; point AUTH_DEV_SECRET_FILE at a writable path, or set AUTH_JWT_SECRET',
    )
  })

  it('refuses a secret file that holds too short a secret, naming the setting', async () => {
    const short = join(dir, 'short-secret')
    writeFileSync(short, 'hunter2\n', { mode: 0o600 })
    const server = spawnServer({
      NODE_ENV: 'development',
      PORT: String(await freePort()),
      AUTH_DEV_SECRET_FILE: short,
    })
    expect(await server.exited).toBe(78)
    expect(server.stderr()).toContain(`AUTH_DEV_SECRET_FILE: ${short} holds 7 characters`)
    expect(server.stderr()).not.toContain('hunter2')
  })
})

describe('production without AUTH_* settings', () => {
  it('refuses to start: exit 78, naming the settings', async () => {
    const server = spawnServer({ NODE_ENV: 'production', PORT: String(await freePort()) })
    expect(await server.exited).toBe(78)
    expect(server.stderr()).toMatch(/AUTH_JWT_SECRET: production needs token verification/)
    expect(server.stderr()).toContain('AUTH_JWKS_URL')
  })

  it('refuses two key sources at once', async () => {
    const server = spawnServer({
      NODE_ENV: 'production',
      AUTH_JWT_SECRET: 'x'.repeat(40),
      AUTH_JWKS_URL: 'https://idp.example/jwks.json',
    })
    expect(await server.exited).toBe(78)
    expect(server.stderr()).toMatch(/AUTH_JWKS_URL: set only one of/)
  })
})

describe('a2a (the built binary)', () => {
  const cli = join(root, 'dist', 'cli', 'main.js')

  it('token --sub --scope --tenant --ttl prints a token with those claims', async () => {
    const { stdout } = await run(
      cli,
      [
        'token',
        '--sub',
        'alice',
        '--scope',
        'a2a:invoke',
        '--scope',
        'skill:echo',
        '--tenant',
        't1',
        '--ttl',
        '15m',
        '--secret',
        'x'.repeat(40),
      ],
      { env: { PATH: process.env.PATH ?? '' } },
    )
    const claims = JSON.parse(Buffer.from(stdout.trim().split('.')[1]!, 'base64url').toString())
    expect(claims).toMatchObject({ sub: 'alice', scope: 'a2a:invoke skill:echo', tenant: 't1' })
    expect(claims.exp - claims.iat).toBe(900)
  })

  it('token says on stderr when it picks the dev secret or the default caller by itself', async () => {
    const secretFile = join(dir, 'dev-secret-for-token')
    writeFileSync(secretFile, `${'s'.repeat(40)}\n`, { mode: 0o600 })
    const env = { PATH: process.env.PATH ?? '', AUTH_DEV_SECRET_FILE: secretFile }
    const fallback = await run(cli, ['token'], { env })
    expect(fallback.stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/)
    expect(fallback.stderr).toBe(
      `a2a token: signed with the dev-mode secret in ${secretFile} (no --secret, no AUTH_JWT_SECRET)\n`,
    )
    // With a real secret (and no dev-mode server here), a token is a real caller's: the default
    // one is named.
    const real = {
      ...env,
      AUTH_DEV_SECRET_FILE: join(dir, 'none'),
      AUTH_JWT_SECRET: 'e'.repeat(40),
    }
    const chosen = await run(cli, ['token'], { env: real })
    expect(chosen.stderr).toBe(
      'a2a token: for the default caller "dev-user" with every skill (a2a:invoke skill:*); name the caller with --sub and its scopes with --scope\n',
    )
    const named = await run(cli, ['token', '--sub', 'alice'], { env: real })
    expect(named.stderr).toBe('')
    // An AUTH_JWT_SECRET left in the shell beside a dev-mode server's secret: its token would be
    // refused by that server.
    const beside = await run(cli, ['token', '--sub', 'alice'], {
      env: { ...env, AUTH_JWT_SECRET: 'e'.repeat(40) },
    })
    expect(beside.stderr).toBe(
      `a2a token: signed with AUTH_JWT_SECRET from the environment; a dev-mode server started here signs with ${secretFile} instead and refuses this token (unset AUTH_JWT_SECRET to mint for it)\n`,
    )
  })

  it('token without any secret exits 78 and says where a secret comes from', async () => {
    const failure = await run(cli, ['token'], {
      env: { PATH: process.env.PATH ?? '', AUTH_DEV_SECRET_FILE: join(dir, 'none') },
    }).catch((error: { code: number; stderr: string }) => error)
    expect(failure).toMatchObject({ code: 78 })
    expect((failure as { stderr: string }).stderr).toContain('AUTH_JWT_SECRET')
    // Where it looked, as a full path: a command run from another directory looks elsewhere.
    const elsewhere = await run(cli, ['token'], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '' },
    }).catch((error: { code: number; stderr: string }) => error)
    expect((elsewhere as { stderr: string }).stderr).toContain(
      `so that it writes ${join(dir, '.a2a', 'dev-secret')} (AUTH_DEV_SECRET_FILE, relative to`,
    )
  })

  it('token refuses an empty --sub or --tenant, which the server would refuse', async () => {
    const env = { PATH: process.env.PATH ?? '' }
    for (const [flag, args] of [
      ['sub', ['--sub', ' ']],
      ['tenant', ['--tenant', '']],
    ] as const) {
      const failure = await run(cli, ['token', ...args, '--secret', 'x'.repeat(40)], {
        env,
      }).catch((error: { code: number; stderr: string }) => error)
      expect(failure).toMatchObject({
        code: 64,
        stderr: `a2a token: --${flag} must not be empty\n`,
      })
    }
  })

  it('token refuses a secret shorter than the server accepts, without showing it', async () => {
    const env = { PATH: process.env.PATH ?? '' }
    const fromFlag = await run(cli, ['token', '--secret', 'hunter2'], { env }).catch(
      (error: { code: number; stderr: string }) => error,
    )
    expect(fromFlag).toMatchObject({ code: 64 })
    expect((fromFlag as { stderr: string }).stderr).toBe(
      'a2a token: --secret is 7 characters; an HS256 secret must be at least 32\n',
    )
    const fromEnv = await run(cli, ['token'], {
      env: { ...env, AUTH_JWT_SECRET: 'hunter2-too-short' },
    }).catch((error: { code: number; stderr: string }) => error)
    expect(fromEnv).toMatchObject({ code: 78 })
    expect((fromEnv as { stderr: string }).stderr).toContain('AUTH_JWT_SECRET is 17 characters')
    expect((fromEnv as { stderr: string }).stderr).not.toContain('hunter2')
  })

  it('token refuses to mint for a server that verifies with a public key or a JWKS', async () => {
    for (const [name, value] of [
      ['AUTH_JWT_PUBLIC_KEY', '-----BEGIN PUBLIC KEY-----'],
      ['AUTH_JWKS_URL', 'https://idp.example/jwks.json'],
    ] as const) {
      const failure = await run(cli, ['token'], {
        env: { PATH: process.env.PATH ?? '', [name]: value },
      }).catch((error: { code: number; stderr: string }) => error)
      expect(failure).toMatchObject({ code: 78 })
      expect((failure as { stderr: string }).stderr).toMatch(
        new RegExp(
          `^a2a token: ${name} is set: this server verifies tokens signed with a private key`,
        ),
      )
    }
  })

  it('an unknown command exits 64 with the usage, also one every object has', async () => {
    for (const name of ['nope', 'constructor']) {
      const failure = await run(cli, [name]).catch(
        (error: { code: number; stderr: string }) => error,
      )
      expect(failure).toMatchObject({ code: 64 })
      expect((failure as { stderr: string }).stderr).toContain(`unknown command "${name}"`)
      expect((failure as { stderr: string }).stderr).toContain('Usage: a2a <command>')
    }
  })
})
