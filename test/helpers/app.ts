/** Builds the real app for a test, with a silent logger and optional settings and skills. */
import type { FastifyInstance } from 'fastify'
import type { AppOverrides } from '../../src/app.js'
import { buildApp } from '../../src/app.js'
import { configFrom } from '../../src/config.js'

export async function testApp(
  env: Record<string, string> = {},
  overrides: AppOverrides = {},
): Promise<FastifyInstance> {
  const app = await buildApp(
    // No audit lines in the test output; the audit tests choose their sink.
    configFrom({ LOG_LEVEL: 'silent', SHUTDOWN_GRACE_MS: '100', AUDIT_SINK: 'off', ...env }),
    overrides,
  )
  await app.ready()
  return app
}

/** Starts the app on a free loopback port, for tests that need real HTTP (SSE). */
export async function listening(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  if (address === null || typeof address === 'string') throw new Error('no TCP address')
  return `http://127.0.0.1:${address.port}`
}
