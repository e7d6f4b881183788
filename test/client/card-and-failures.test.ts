/**
 * What the client says when the agent is not what it should be: a card that does not validate,
 * no card at all, an agent that never answers, a caller that gives up.
 */
import { createServer } from 'node:http'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  A2AClient,
  A2ATimeoutError,
  AgentCardError,
  AgentUnreachableError,
  InvalidAgentResponseError,
  TokenProviderError,
} from '../../src/index.js'
import { freePort } from './agents.js'

/** Serves whatever a test puts in `routes` (path → status and body); `/slow` never answers. */
let routes: Record<string, { status: number; body: string }> = {}
let server: Server
let url: string

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/slow/.well-known/agent-card.json') return
    const route = routes[request.url ?? '']
    response.writeHead(route?.status ?? 404, { 'content-type': 'application/json' })
    response.end(route?.body ?? '{"error":{"code":"ROUTE_NOT_FOUND","message":"nothing here"}}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

const seedCard = (overrides: Record<string, unknown> = {}) => ({
  name: 'Seed Agent',
  description: 'answers in the brief dialect',
  url,
  version: '1.0.0',
  capabilities: { streaming: false },
  skills: [{ id: 'review-pr', name: 'Review', description: 'reviews' }],
  ...overrides,
})

describe('Agent Card resolution', () => {
  it('falls back to /.well-known/agent.json when the A2A card is missing', async () => {
    routes = { '/.well-known/agent.json': { status: 200, body: JSON.stringify(seedCard()) } }
    const client = await A2AClient.connect(url)
    expect(client.card).toMatchObject({ dialect: 'seed', endpoint: url, streaming: false })
    expect(client.card.source).toBe(`${url}/.well-known/agent.json`)
  })

  it('refuses a card that does not validate, saying which fields are wrong', async () => {
    routes = {
      '/.well-known/agent.json': {
        status: 200,
        body: JSON.stringify(seedCard({ skills: [{ name: 'no id' }], url: 'not a url' })),
      },
    }
    const error = await A2AClient.connect(url).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AgentCardError)
    expect((error as AgentCardError).reason).toBe('skills.0.id: is required; url: must be a URL')
  })

  it('refuses a card that offers no interface the client speaks', async () => {
    const card = {
      ...seedCard(),
      supportedInterfaces: [{ url, protocolBinding: 'GRPC', protocolVersion: '1.0' }],
    }
    routes = { '/.well-known/agent-card.json': { status: 200, body: JSON.stringify(card) } }
    const error = await A2AClient.connect(url).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AgentCardError)
    expect((error as AgentCardError).reason).toBe(
      'it offers no interface this client speaks (JSONRPC 1.0 or 0.3), only: GRPC 1.0',
    )
  })

  it('refuses a dialect or version it does not know, rather than ignore it', async () => {
    const misspelt = { dialect: 'jsonrpc-0.3' } as unknown as { dialect: 'seed' }
    await expect(A2AClient.connect(url, misspelt)).rejects.toThrow(
      `dialect must be 'a2a' or 'seed', not "jsonrpc-0.3" (JSON-RPC 0.3 is protocolVersion: '0.3')`,
    )
    const version = { protocolVersion: '0.2' } as unknown as { protocolVersion: '0.3' }
    await expect(A2AClient.connect(url, version)).rejects.toThrow(
      `protocolVersion must be '1.0' or '0.3', not "0.2"`,
    )
  })

  it('says where it looked when there is no card at all', async () => {
    routes = {}
    const error = await A2AClient.connect(url).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AgentCardError)
    expect((error as Error).message).toBe(
      `Agent Card at ${url}/.well-known/agent-card.json or ${url}/.well-known/agent.json is not usable: HTTP 404: nothing here`,
    )
  })

  it("sums up a web server's HTML error page in one line, with its status and no markup", async () => {
    const page =
      '<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head>\n' +
      `<body><h1>Not Found</h1><p>${'The requested URL was not found. '.repeat(40)}</p></body></html>\n`
    routes = {
      '/.well-known/agent-card.json': { status: 404, body: page },
      '/.well-known/agent.json': { status: 404, body: page },
    }
    const error = await A2AClient.connect(url).catch((e: unknown) => e)
    expect((error as Error).message).toBe(
      `Agent Card at ${url}/.well-known/agent-card.json or ${url}/.well-known/agent.json is not usable: HTTP 404 from something in front of the agent (a proxy, a web server): an HTML page, "404 Not Found"`,
    )
    expect(((error as AgentCardError).cause as Error).message).toBe(
      `HTTP 404 from something in front of the agent (a proxy, a web server): an HTML page, "404 Not Found"`,
    )
    routes = { '/.well-known/agent-card.json': { status: 502, body: `${'x'.repeat(300)}\nmore` } }
    const long = await A2AClient.connect(url).catch((e: unknown) => e)
    expect((long as Error).message).toBe(
      `Agent Card at ${url}/.well-known/agent-card.json is not usable: HTTP 502: ${'x'.repeat(200)}…`,
    )
  })

  it('refuses a streaming call to an agent whose card says it does not stream', async () => {
    routes = { '/.well-known/agent.json': { status: 200, body: JSON.stringify(seedCard()) } }
    const client = await A2AClient.connect(url)
    const error = await client
      .stream({ text: 'x' })
      .next()
      .catch((e: unknown) => e)
    expect((error as Error).name).toBe('StreamingNotSupportedError')
  })

  it('reports a reply that does not fit the dialect as an invalid agent response', async () => {
    routes = { '/.well-known/agent.json': { status: 200, body: JSON.stringify(seedCard()) } }
    const client = await A2AClient.connect(url)
    routes['/tasks/abc'] = { status: 200, body: '{"id":"abc","status":{"state":"dreaming"}}' }
    const error = await client.get('abc').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidAgentResponseError)
    expect((error as Error).message).toMatch(
      /^The reply to GET \/tasks\/abc does not fit the dialect: status\.state: /,
    )
  })
})

describe('calls that get no answer', () => {
  it('times out after the per-call timeout', async () => {
    const error = await A2AClient.connect(`${url}/slow`, { timeoutMs: 100 }).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(A2ATimeoutError)
    expect((error as Error).message).toBe(
      `GET ${url}/slow/.well-known/agent-card.json timed out after 100 ms`,
    )
  })

  it("ends with the caller's reason when its AbortSignal fires", async () => {
    const controller = new AbortController()
    setTimeout(() => controller.abort(new Error('user gave up')), 50)
    const error = await A2AClient.connect(`${url}/slow`, { signal: controller.signal }).catch(
      (e: unknown) => e,
    )
    expect((error as Error).message).toBe('user gave up')
  })

  it("says a URL or a token provider is the caller's mistake, not an unreachable agent", async () => {
    for (const bad of ['not a url', 'ftp://example.com', '/relative']) {
      await expect(A2AClient.connect(bad)).rejects.toThrow(
        new TypeError(`url must be an absolute http or https URL, not ${JSON.stringify(bad)}`),
      )
    }
    const error = await A2AClient.connect(url, {
      token: () => {
        throw new Error('no token for you')
      },
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TokenProviderError)
    expect(error).not.toBeInstanceOf(AgentUnreachableError)
    expect((error as Error).message).toBe('The token provider failed: no token for you')
  })

  it('says in one line that https reached a plain http port', async () => {
    const error = await A2AClient.connect(url.replace('http:', 'https:')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AgentUnreachableError)
    expect((error as Error).message).toMatch(
      /failed: fetch failed: TLS failed: wrong version number \(is it plain http there, not https\?\)$/,
    )
    expect((error as Error).message).not.toContain('\n')
  })

  it('reports an agent that refuses the connection as unreachable', async () => {
    const port = await freePort()
    const error = await A2AClient.connect(`http://127.0.0.1:${port}`).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AgentUnreachableError)
    expect((error as Error).message).toMatch(/ECONNREFUSED/)
  })
})
