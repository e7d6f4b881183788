import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { promisify } from 'node:util'
import ts from 'typescript'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildApp, callerClaims, configFrom, defineSkill, signJwt, textPart } from '../src/index.js'
import { ensureBuilt, root } from './cli/run-cli.js'

const run = promisify(execFile)

const SECRET = 'an-embedding-secret-of-32-characters-or-more'

describe('the package API', () => {
  it('builds a server around a skill written against it', async () => {
    const shout = defineSkill({
      id: 'shout',
      name: 'Shout',
      description: 'Repeats the message in capitals',
      tags: [],
      async execute(ctx) {
        await ctx.emitArtifact({ name: 'loud', parts: [textPart(ctx.input.text.toUpperCase())] })
        return ctx.complete()
      },
    })
    const app = await buildApp(
      configFrom({ LOG_LEVEL: 'silent', AUDIT_SINK: 'off', AUTH_JWT_SECRET: SECRET }),
      {
        skills: [shout],
      },
    )
    const claims = callerClaims({
      sub: 'me',
      scopes: ['a2a:invoke', 'skill:shout'],
      ttlSeconds: 60,
    })
    const token = signJwt(claims, { alg: 'HS256', key: SECRET })
    const response = await app.inject({
      method: 'POST',
      url: '/tasks/send',
      headers: { authorization: `Bearer ${token}` },
      payload: {
        id: '7b0c2d4e-8f10-4a2b-9c3d-5e6f7a8b9c0d',
        message: { role: 'user', parts: [{ type: 'text', text: 'hello' }] },
      },
    })
    expect(response.json().artifacts[0].parts).toEqual([{ type: 'text', text: 'HELLO' }])
    await app.close()
  })
})

/** The package's `exports` map, as a program that imports the package would resolve it. */
const manifest = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
  exports: Record<string, { types: string; import: string }>
}

/**
 * Every file the built module at `file` loads, following its static and dynamic imports, and
 * the packages (bare specifiers) they import.
 */
function importGraph(file: string): { files: string[]; packages: string[] } {
  const files = new Set<string>()
  const packages = new Set<string>()
  const visit = (path: string) => {
    if (files.has(path)) return
    files.add(path)
    const { importedFiles } = ts.preProcessFile(readFileSync(path, 'utf8'), true, true)
    for (const { fileName } of importedFiles) {
      if (fileName.startsWith('.')) visit(resolve(dirname(path), fileName))
      else packages.add(fileName.startsWith('node:') ? 'node:' : fileName)
    }
  }
  visit(resolve(root, file))
  return { files: [...files].map((path) => path.slice(root.length)), packages: [...packages] }
}

describe('the client entry, a2a-fastify/client', () => {
  beforeAll(() => ensureBuilt(), 200_000)

  it('is in the exports map, with its types', () => {
    expect(manifest.exports['./client']).toEqual({
      types: './dist/client/index.d.ts',
      import: './dist/client/index.js',
    })
    for (const entry of Object.values(manifest.exports)) {
      expect(existsSync(`${root}${entry.types}`)).toBe(true)
      expect(existsSync(`${root}${entry.import}`)).toBe(true)
    }
  })

  it('loads none of the server: no Fastify, Redis or logger in its import graph', () => {
    const { files, packages } = importGraph(manifest.exports['./client']!.import)
    expect(files).toContain('dist/client/client.js')
    expect(packages.sort()).toEqual(['node:', 'zod'])
    expect(files.filter((file) => !/^dist\/(client|domain|protocol)\//.test(file))).toEqual([])
  })

  it('resolves by the package name and exports the same client as the root entry', async () => {
    // Imported by name from the package's own directory, as node resolves it for a dependant.
    const script = `
      const client = await import('a2a-fastify/client')
      const all = await import('a2a-fastify')
      const names = Object.keys(client).sort()
      console.log(JSON.stringify({ names, same: names.every((name) => all[name] === client[name]) }))
    `
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: root,
    })
    const { names, same } = JSON.parse(stdout) as { names: string[]; same: boolean }
    expect(names).toEqual(
      expect.arrayContaining([
        'A2AClient',
        'A2AClientError',
        'A2ATimeoutError',
        'AgentCardError',
        'AgentError',
        'AgentUnreachableError',
        'InvalidAgentResponseError',
        'SkillNotDeclaredError',
        'StreamInterruptedError',
        'StreamingNotSupportedError',
        'TokenProviderError',
      ]),
    )
    expect(same).toBe(true)
  })
})
