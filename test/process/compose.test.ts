/**
 * docker-compose.yml and the Dockerfile, as far as this machine can run them (it has no Docker
 * engine): each service built from the image gets the image's ENV plus its `environment:`, with
 * `${…}` filled in as Compose fills it, and runs the image's CMD on the built output. Any setting
 * the image's production mode needs and the file does not give would stop the service here too.
 */
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { freePort } from '../client/agents.js'
import { bearer, TEST_SECRET } from '../helpers/auth.js'
import { root } from '../helpers/built-server.js'
import { connectTestRedis, deleteKeysUnder, testPrefix } from '../helpers/redis.js'

interface Service {
  build?: unknown
  environment?: Record<string, string>
  healthcheck?: { test: string[] }
}

// `merge`: the services share their environment through a `<<:` merge key.
const compose = parse(readFileSync(`${root}docker-compose.yml`, 'utf8'), { merge: true }) as {
  services: Record<string, Service>
}
const image = runtimeStage(readFileSync(`${root}Dockerfile`, 'utf8'))

/** The last stage's ENV (KEY=value pairs) and its CMD (exec form). */
function runtimeStage(dockerfile: string): { env: Record<string, string>; cmd: string[] } {
  const stage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '))
  const env: Record<string, string> = {}
  for (const [, pairs = ''] of stage.matchAll(/^ENV (.+)$/gm)) {
    for (const pair of pairs.split(/\s+/)) {
      const [name = '', value = ''] = pair.split('=')
      env[name] = value
    }
  }
  const cmd = /^CMD (\[.+\])$/m.exec(stage)?.[1]
  if (cmd === undefined) throw new Error('the Dockerfile has no exec-form CMD')
  return { env, cmd: JSON.parse(cmd) as string[] }
}

/** Compose's interpolation, for the forms the file uses: ${NAME}, ${NAME:-default}, ${NAME:?error}. */
function interpolate(value: string, shell: Record<string, string>): string {
  return value.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_match, name: string, kind, rest) => {
    const given = shell[name]
    if (given !== undefined && given !== '') return given
    if (kind === '?') throw new Error(`compose refuses to start: ${String(rest)}`)
    return kind === '-' ? String(rest) : ''
  })
}

function environmentOf(service: Service, shell: Record<string, string>): Record<string, string> {
  const entries = Object.entries(service.environment ?? {})
  return Object.fromEntries(
    entries.map(([name, value]) => [name, interpolate(String(value), shell)]),
  )
}

const children = new Set<ChildProcess>()
afterEach(() => {
  for (const child of children) child.kill('SIGKILL')
  children.clear()
})

/** Runs the image's CMD with the service's environment, here: Redis and the port made local. */
async function runService(name: string, shell: Record<string, string>, prefix: string) {
  const service = compose.services[name]
  if (service === undefined) throw new Error(`no service ${name}`)
  const port = await freePort()
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    ...image.env,
    ...environmentOf(service, shell),
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    AUDIT_SINK: 'off',
    REDIS_KEY_PREFIX: prefix,
  }
  env.REDIS_URL = env.REDIS_URL?.replace('//redis:', '//127.0.0.1:') ?? ''
  const [command = '', ...args] = image.cmd
  const child = spawn(command === 'node' ? process.execPath : command, args, {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  children.add(child)
  let stderr = ''
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const url = `http://127.0.0.1:${port}`
  // The probe its healthcheck uses.
  const probe = service.healthcheck?.test.join(' ').includes('/readyz') ? '/readyz' : '/healthz'
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null) throw new Error(`${name} exited ${child.exitCode}:\n${stderr}`)
    const ok = await fetch(`${url}${probe}`).then(
      (response) => response.ok,
      () => false,
    )
    if (ok) return { child, url }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${name} did not answer ${probe}:\n${stderr}`)
}

describe('docker-compose.yml with the Dockerfile', () => {
  const shell = { AUTH_JWT_SECRET: TEST_SECRET }

  it('runs the API service in production mode, verifying tokens with the secret it is given', async () => {
    const prefix = testPrefix()
    const redis = connectTestRedis()
    try {
      expect(image.env.NODE_ENV).toBe('production')
      const { child, url } = await runService('a2a', shell, prefix)
      expect((await fetch(`${url}/.well-known/agent.json`)).status).toBe(200)
      const task = `${url}/tasks/${randomUUID()}`
      expect((await fetch(task)).status).toBe(401)
      expect((await fetch(task, { headers: { authorization: bearer() } })).status).toBe(404)
      child.kill('SIGTERM')
      await new Promise((resolve) => child.once('exit', resolve))
      expect(child.exitCode).toBe(0)
    } finally {
      await deleteKeysUnder(redis, prefix)
      await redis.quit()
    }
  })

  it('runs the worker service, which serves its probes, without the secret', async () => {
    const prefix = testPrefix()
    const redis = connectTestRedis()
    try {
      expect(compose.services.worker!.environment).not.toHaveProperty('AUTH_JWT_SECRET')
      const { url } = await runService('worker', {}, prefix)
      expect((await fetch(`${url}/readyz`)).status).toBe(200)
    } finally {
      await deleteKeysUnder(redis, prefix)
      await redis.quit()
    }
  })

  it('refuses to start the API without a secret, saying which variable to set', () => {
    expect(() => environmentOf(compose.services.a2a!, {})).toThrow(/set AUTH_JWT_SECRET/)
  })
})
