/**
 * Builds the real app for a test, with a silent logger, the test secret and optional settings
 * and skills. Its `inject` sends the default test caller's token (test/helpers/auth.ts) unless
 * the request has its own `authorization` header; `authorization: undefined` sends none.
 */
import type { FastifyInstance, InjectOptions } from 'fastify'
import type { AppOverrides } from '../../src/app.js'
import { buildApp } from '../../src/app.js'
import { configFrom } from '../../src/config.js'
import { bearer, TEST_SECRET } from './auth.js'

const KEY_SETTINGS = ['AUTH_JWT_SECRET', 'AUTH_JWT_PUBLIC_KEY', 'AUTH_JWKS_URL']

export async function testApp(
  env: Record<string, string> = {},
  overrides: AppOverrides = {},
): Promise<FastifyInstance> {
  const keys: Record<string, string> = KEY_SETTINGS.some((name) => name in env)
    ? {}
    : { AUTH_JWT_SECRET: TEST_SECRET }
  const app = await buildApp(
    // No audit lines in the test output; the audit tests choose their sink.
    configFrom({
      LOG_LEVEL: 'silent',
      SHUTDOWN_GRACE_MS: '100',
      AUDIT_SINK: 'off',
      ...keys,
      ...env,
    }),
    overrides,
  )
  await app.ready()
  withDefaultCredentials(app)
  return app
}

function withDefaultCredentials(app: FastifyInstance): void {
  const inject = app.inject.bind(app) as (options: InjectOptions | string) => unknown
  const authorization = bearer()
  const withCredentials = (options: InjectOptions | string): InjectOptions => {
    const request = typeof options === 'string' ? { url: options } : options
    const headers = { ...(request.headers as Record<string, unknown> | undefined) }
    const own = Object.keys(headers).find((name) => name.toLowerCase() === 'authorization')
    if (own === undefined) headers.authorization = authorization
    else if (headers[own] === undefined) delete headers[own]
    return { ...request, headers } as InjectOptions
  }
  Object.defineProperty(app, 'inject', {
    value: (options: InjectOptions | string, ...rest: unknown[]) =>
      (inject as (...args: unknown[]) => unknown)(withCredentials(options), ...rest),
    configurable: true,
    writable: true,
  })
}

/** Starts the app on a free loopback port, for tests that need real HTTP (SSE). */
export async function listening(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  if (address === null || typeof address === 'string') throw new Error('no TCP address')
  return `http://127.0.0.1:${address.port}`
}
