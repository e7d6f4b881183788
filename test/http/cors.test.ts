/**
 * CORS_ORIGINS: what a browser on another origin is told, preflight and answer alike, in every
 * dialect; and that without the setting no other origin is allowed. (test/e2e/browser-cors.test.ts
 * drives a real browser.)
 */
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { testApp } from '../helpers/app.js'

const PAGE = 'https://app.example.com'
const apps: FastifyInstance[] = []
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close()
})

async function appWith(env: Record<string, string>): Promise<FastifyInstance> {
  const app = await testApp(env)
  apps.push(app)
  return app
}

const preflight = (url: string, origin = PAGE) => ({
  method: 'OPTIONS' as const,
  url,
  headers: {
    origin,
    'access-control-request-method': 'POST',
    'access-control-request-headers': 'authorization,content-type,a2a-version',
    authorization: undefined,
  },
})

const message = { role: 'user', parts: [{ type: 'text', text: 'hello' }] }

describe('CORS_ORIGINS set to origins', () => {
  it('answers a preflight without a token, naming what the page may send', async () => {
    const app = await appWith({ CORS_ORIGINS: `${PAGE},http://localhost:5173` })
    for (const path of ['/a2a/jsonrpc', '/a2a/rest/message:send', '/tasks/send']) {
      const response = await app.inject(preflight(path))
      expect(response.statusCode).toBe(204)
      expect(response.body).toBe('')
      expect(response.headers).toMatchObject({
        'access-control-allow-origin': PAGE,
        'access-control-allow-methods': 'GET, HEAD, POST, DELETE',
        'access-control-allow-headers': 'authorization,content-type,a2a-version',
        'access-control-max-age': '600',
      })
      expect(response.headers.vary).toContain('Origin')
      expect(response.headers).not.toHaveProperty('access-control-allow-credentials')
    }
  })

  it('lets the page read every answer, errors included, and the headers it needs', async () => {
    const app = await appWith({ CORS_ORIGINS: PAGE })
    const sent = await app.inject({
      method: 'POST',
      url: '/tasks/send',
      headers: { origin: PAGE },
      payload: { id: crypto.randomUUID(), message, metadata: { skillId: 'echo' } },
    })
    expect(sent.statusCode).toBe(200)
    expect(sent.headers['access-control-allow-origin']).toBe(PAGE)
    expect(String(sent.headers['access-control-expose-headers']).split(', ')).toEqual(
      expect.arrayContaining(['x-request-id', 'retry-after', 'www-authenticate', 'etag']),
    )

    const refused = await app.inject({
      method: 'POST',
      url: '/a2a/jsonrpc',
      headers: { origin: PAGE, authorization: undefined, 'a2a-version': '1.0' },
      payload: { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } },
    })
    expect(refused.statusCode).toBe(401)
    expect(refused.headers['access-control-allow-origin']).toBe(PAGE)
    expect(refused.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32030 } })
  })

  it('keeps Vary: A2A-Version on the card beside Vary: Origin, also on a 304', async () => {
    const app = await appWith({ CORS_ORIGINS: PAGE })
    const headers = { origin: PAGE, 'a2a-version': '1.0', authorization: undefined }
    const card = await app.inject({ url: '/.well-known/agent-card.json', headers })
    expect(card.statusCode).toBe(200)
    expect(card.headers.vary).toBe('Origin, A2A-Version')
    expect(card.headers['access-control-allow-origin']).toBe(PAGE)
    const again = await app.inject({
      url: '/.well-known/agent-card.json',
      headers: { ...headers, 'if-none-match': String(card.headers.etag) },
    })
    expect(again.statusCode).toBe(304)
    expect(again.headers.vary).toBe('Origin, A2A-Version')
    expect(again.headers['access-control-allow-origin']).toBe(PAGE)
  })

  it('names no origin for a page it does not list, so the browser keeps the answer from it', async () => {
    const app = await appWith({ CORS_ORIGINS: PAGE })
    const response = await app.inject(preflight('/a2a/jsonrpc', 'https://evil.example'))
    expect(response.headers).not.toHaveProperty('access-control-allow-origin')
    const card = await app.inject({
      url: '/.well-known/agent.json',
      headers: { origin: 'https://evil.example' },
    })
    expect(card.statusCode).toBe(200)
    expect(card.headers).not.toHaveProperty('access-control-allow-origin')
  })

  it('spends no rate-limit budget on preflights', async () => {
    const app = await appWith({ CORS_ORIGINS: PAGE, RATE_LIMIT_MAX: '2' })
    for (let i = 0; i < 5; i++) {
      expect((await app.inject(preflight('/a2a/jsonrpc'))).statusCode).toBe(204)
    }
    const read = await app.inject({ url: '/tasks/00000000-0000-4000-8000-000000000000' })
    expect(read.headers['x-ratelimit-remaining']).toBe('1')
  })
})

describe('CORS_ORIGINS=*', () => {
  it('allows any origin', async () => {
    const app = await appWith({ CORS_ORIGINS: '*' })
    const response = await app.inject(preflight('/a2a/jsonrpc', 'http://anything.test:8080'))
    expect(response.statusCode).toBe(204)
    expect(response.headers['access-control-allow-origin']).toBe('*')
  })
})

describe('CORS_ORIGINS unset (the default)', () => {
  it('allows no other origin: a preflight is refused as any OPTIONS request is', async () => {
    const app = await appWith({})
    const response = await app.inject(preflight('/a2a/jsonrpc'))
    expect(response.statusCode).toBe(405)
    expect(response.headers).not.toHaveProperty('access-control-allow-origin')
    const card = await app.inject({ url: '/.well-known/agent.json', headers: { origin: PAGE } })
    expect(card.headers).not.toHaveProperty('access-control-allow-origin')
  })
})
