/**
 * The registry's HTTP API (/registry/agents) on a server whose registry holds three real agents
 * on real ports, two of them declaring the same skill; in memory and on Redis.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../client/agents.js'
import { testApp } from '../helpers/app.js'
import { bearer } from '../helpers/auth.js'
import { connectTestRedis, deleteKeysUnder, testPrefix } from '../helpers/redis.js'
import { waitFor } from '../multiprocess/cluster.js'
import { countSkill, startTestAgent, translateSkill } from './agents.js'
import type { TestAgent } from './agents.js'

const INTERVAL_MS = 200
/** Changing the registry needs a2a:admin; testApp's default caller may only read it. */
const ADMIN = { authorization: bearer({ sub: 'operator', scopes: ['a2a:admin'] }) }

interface Listed {
  id: string
  name: string
  health: string
  skills: { id: string }[]
}

describe.each([
  ['in memory', false],
  ['on Redis', true],
])('the agent registry API %s', (_name, onRedis) => {
  const redis = connectTestRedis()
  const prefix = testPrefix()
  let registry: FastifyInstance
  let alpha: TestAgent
  let beta: TestAgent
  let gamma: TestAgent

  beforeAll(async () => {
    ;[alpha, beta, gamma] = await Promise.all([
      startTestAgent('Alpha', [translateSkill('Alpha')]),
      startTestAgent('Beta', [translateSkill('Beta')]),
      startTestAgent('Gamma', [countSkill]),
    ])
    registry = await testApp({
      REGISTRY_CHECK_INTERVAL_MS: String(INTERVAL_MS),
      REGISTRY_UNHEALTHY_AFTER: '1',
      REGISTRY_MAX_BACKOFF_MS: String(INTERVAL_MS),
      REGISTRY_CHECK_TIMEOUT_MS: '1000',
      ...(onRedis && { REDIS_URL: 'redis://127.0.0.1:6379', REDIS_KEY_PREFIX: prefix }),
    })
  })

  afterEach(async () => {
    for (const agent of await list())
      await registry.inject({
        method: 'DELETE',
        url: `/registry/agents/${agent.id}`,
        headers: ADMIN,
      })
  })

  afterAll(async () => {
    await registry.close()
    await Promise.all([alpha, beta, gamma].map((agent) => agent.stop()))
    await deleteKeysUnder(redis, prefix)
    await redis.quit()
  })

  const register = (url: unknown) =>
    registry.inject({ method: 'POST', url: '/registry/agents', payload: { url }, headers: ADMIN })

  async function list(query = ''): Promise<Listed[]> {
    const reply = await registry.inject({ url: `/registry/agents${query}` })
    expect(reply.statusCode).toBe(200)
    return reply.json<{ agents: Listed[] }>().agents
  }

  const registerAll = async () => {
    for (const agent of [alpha, beta, gamma])
      expect((await register(agent.url)).statusCode).toBe(201)
  }

  it('registers an agent from its card and answers 201 with the entry', async () => {
    const reply = await register(alpha.url)
    expect(reply.statusCode).toBe(201)
    const entry = reply.json()
    expect(entry).toMatchObject({
      url: alpha.url,
      name: 'Alpha',
      dialect: 'jsonrpc-1.0',
      streaming: true,
      health: 'healthy',
      consecutiveFailures: 0,
      skills: [{ id: 'translate', name: 'Translate', tags: ['language', 'text'] }],
    })
    expect(entry.id).toMatch(/^[0-9a-f]{16}$/)
    expect(reply.headers.location).toBe(`/registry/agents/${entry.id}`)
    const read = await registry.inject({ url: `/registry/agents/${entry.id}` })
    expect(read.statusCode).toBe(200)
    expect(read.json()).toEqual(entry)
  })

  it('registers the same URL again as the same entry, refreshed, with 200', async () => {
    const first = (await register(alpha.url)).json()
    const again = await register(`${alpha.url}/`)
    expect(again.statusCode).toBe(200)
    expect(again.json()).toMatchObject({ id: first.id, registeredAt: first.registeredAt })
    expect(await list()).toHaveLength(1)
  })

  it("registers an agent by its card's URL as the entry it has by its base URL, keeping that URL", async () => {
    const first = (await register(alpha.url)).json()
    for (const spelling of [
      `${alpha.url}/.well-known/agent-card.json`,
      alpha.url.replace('http://', 'HTTP://'),
    ]) {
      const again = await register(spelling)
      expect(again.statusCode).toBe(200)
      expect(again.json()).toMatchObject({ id: first.id, url: alpha.url })
    }
    expect(await list()).toHaveLength(1)
  })

  it('lists every agent, and finds them by skill, by tag and by health', async () => {
    await registerAll()
    expect((await list()).map((a) => a.name)).toEqual(['Alpha', 'Beta', 'Gamma'])
    expect((await list('?skill=translate')).map((a) => a.name)).toEqual(['Alpha', 'Beta'])
    expect((await list('?tag=math')).map((a) => a.name)).toEqual(['Gamma'])
    expect(await list('?skill=nothing')).toEqual([])
    expect((await list('?healthy=true')).map((a) => a.name)).toEqual(['Alpha', 'Beta', 'Gamma'])
    expect(await list('?healthy=false')).toEqual([])
  })

  it('removes an agent with 204; then it is not found', async () => {
    const { id } = (await register(gamma.url)).json()
    // Sent as many clients do: `Content-Type: application/json` on a request without a body.
    const removed = await registry.inject({
      method: 'DELETE',
      url: `/registry/agents/${id}`,
      headers: { ...ADMIN, 'content-type': 'application/json' },
    })
    expect(removed.statusCode).toBe(204)
    expect(removed.body).toBe('')
    for (const method of ['GET', 'DELETE'] as const) {
      const reply = await registry.inject({ method, url: `/registry/agents/${id}`, headers: ADMIN })
      expect(reply.statusCode).toBe(404)
      expect(reply.json()).toMatchObject({
        error: { code: 'AGENT_NOT_FOUND', message: `Agent ${id} is not registered`, agentId: id },
      })
    }
  })

  it('marks a stopped agent unhealthy within the check interval, and healthy once it answers again', async () => {
    await registerAll()
    await beta.stop()
    const stoppedAt = Date.now()
    const unhealthy = await waitFor(
      'Beta to be unhealthy',
      async () => {
        const found = await list('?healthy=false')
        return found.length > 0 ? found : undefined
      },
      5_000,
      20,
    )
    // One interval until the due check, plus the refused connection and the ticks around it.
    expect(Date.now() - stoppedAt).toBeLessThan(INTERVAL_MS * 2 + 300)
    expect(unhealthy).toMatchObject([{ name: 'Beta', health: 'unhealthy', consecutiveFailures: 1 }])
    expect((unhealthy[0] as unknown as { lastError: string }).lastError).toContain('ECONNREFUSED')
    expect((await list('?skill=translate&healthy=true')).map((a) => a.name)).toEqual(['Alpha'])

    await beta.restart()
    await waitFor('Beta to be healthy again', async () =>
      (await list('?healthy=false')).length === 0 ? true : undefined,
    )
    expect((await list('?skill=translate&healthy=true')).map((a) => a.name)).toEqual([
      'Alpha',
      'Beta',
    ])
  })

  it('picks up a changed card (new skills) on the next check', async () => {
    await registerAll()
    await gamma.stop()
    await gamma.restart([countSkill, translateSkill('Gamma')])
    const translators = await waitFor('Gamma to declare translate', async () => {
      const found = await list('?skill=translate')
      return found.length === 3 ? found : undefined
    })
    expect(translators.map((a) => a.name)).toEqual(['Alpha', 'Beta', 'Gamma'])
    await gamma.stop()
    await gamma.restart([countSkill])
  })

  describe('refuses a bad card with 422 and the reason', () => {
    let junk: ReturnType<typeof createServer>
    let junkUrl: string
    beforeAll(async () => {
      junk = createServer((request, response) => {
        if (request.url === '/text/.well-known/agent-card.json') {
          response.setHeader('content-type', 'text/html')
          return response.end('<html>hello</html>')
        }
        if (request.url === '/shape/.well-known/agent-card.json') {
          response.setHeader('content-type', 'application/json')
          return response.end(
            JSON.stringify({ name: 'Odd', url: 'http://x.test', skills: [{ name: 'no id' }] }),
          )
        }
        response.statusCode = 404
        response.end('{}')
      })
      await new Promise<void>((resolve) => junk.listen(0, '127.0.0.1', resolve))
      junkUrl = `http://127.0.0.1:${(junk.address() as AddressInfo).port}`
    })
    afterAll(() => new Promise<void>((resolve) => junk.close(() => resolve())))

    it('an agent that cannot be reached', async () => {
      const url = `http://127.0.0.1:${await freePort()}`
      const reply = await register(url)
      expect(reply.statusCode).toBe(422)
      const { error } = reply.json()
      expect(error).toMatchObject({ code: 'AGENT_CARD_REJECTED', url, problem: 'unreachable' })
      expect(error.message).toContain(`The Agent Card of ${url} was refused:`)
      expect(error.message).toContain('ECONNREFUSED')
      expect(await list()).toEqual([])
    })

    it('a card that is not JSON', async () => {
      const reply = await register(`${junkUrl}/text`)
      expect(reply.statusCode).toBe(422)
      expect(reply.json().error).toMatchObject({
        code: 'AGENT_CARD_REJECTED',
        problem: 'not-json',
        message: `The Agent Card of ${junkUrl}/text was refused: the body is not JSON`,
      })
    })

    it('a card of the wrong shape, naming the field', async () => {
      const reply = await register(`${junkUrl}/shape`)
      expect(reply.statusCode).toBe(422)
      const { error } = reply.json()
      expect(error).toMatchObject({
        code: 'AGENT_CARD_REJECTED',
        problem: 'invalid-card',
        field: 'skills.0.id',
      })
      expect(error.message).toContain('skills.0.id:')
    })

    it('no card at either well-known path', async () => {
      const reply = await register(`${junkUrl}/nothing`)
      expect(reply.statusCode).toBe(422)
      expect(reply.json().error).toMatchObject({ problem: 'not-found' })
    })

    it('a path of one of our own agents that serves no card: not found, not a token problem', async () => {
      const reply = await register(`${alpha.url}/nothing`)
      expect(reply.statusCode).toBe(422)
      expect(reply.json().error).toMatchObject({ problem: 'not-found' })
    })

    it('a body without an http URL is a 400 naming the field', async () => {
      for (const url of [undefined, 'ftp://example.com', 'not a url', 42]) {
        const reply = await register(url)
        expect(reply.statusCode).toBe(400)
        expect(reply.json().error).toMatchObject({ code: 'INVALID_REQUEST', field: 'url' })
      }
    })

    it('a URL with a user name or password is a 400 that does not try to reach it', async () => {
      const reply = await register('http://alice:s3cret@127.0.0.1:9/')
      expect(reply.statusCode).toBe(400)
      expect(reply.json().error).toMatchObject({
        code: 'INVALID_REQUEST',
        field: 'url',
        message: 'url: must not include a user name or password',
      })
      expect((await registry.inject({ method: 'GET', url: '/registry/agents' })).json()).toEqual({
        agents: [],
      })
    })
  })

  describe('who may change and read it', () => {
    const requestsThatChange = (id: string) => [
      { method: 'POST' as const, url: '/registry/agents', payload: { url: gamma.url } },
      { method: 'DELETE' as const, url: `/registry/agents/${id}` },
    ]

    it('refuses a caller without a2a:admin with 403 and an insufficient_scope challenge, changing nothing', async () => {
      const { id } = (await register(alpha.url)).json<{ id: string }>()
      for (const request of requestsThatChange(id)) {
        // testApp's default caller: a2a:invoke and every skill, but not admin.
        const reply = await registry.inject(request)
        expect(reply.statusCode, request.method).toBe(403)
        expect(reply.headers['www-authenticate']).toBe(
          'Bearer error="insufficient_scope", scope="a2a:admin"',
        )
        expect(reply.json()).toEqual({
          error: {
            code: 'PERMISSION_DENIED',
            message: 'The token lacks the scope a2a:admin needed to do this',
            requiredScopes: 'a2a:admin',
            requestId: reply.headers['x-request-id'],
          },
        })
      }
      expect((await list()).map((agent) => agent.name)).toEqual(['Alpha'])
    })

    it('refuses a request without a token with 401 and a Bearer challenge', async () => {
      const { id } = (await register(alpha.url)).json<{ id: string }>()
      for (const request of [
        ...requestsThatChange(id),
        { method: 'GET' as const, url: '/registry/agents' },
        { method: 'GET' as const, url: `/registry/agents/${id}` },
      ]) {
        const reply = await registry.inject({ ...request, headers: { authorization: undefined } })
        expect(reply.statusCode, `${request.method} ${request.url}`).toBe(401)
        expect(reply.headers['www-authenticate']).toMatch(/^Bearer realm="a2a"/)
        expect(reply.json().error).toMatchObject({ code: 'UNAUTHENTICATED' })
      }
      expect(await list()).toHaveLength(1)
    })

    it('lets any authenticated caller read it, even one with a2a:invoke alone', async () => {
      const { id } = (await register(alpha.url)).json<{ id: string }>()
      const reader = { authorization: bearer({ sub: 'reader', scopes: ['a2a:invoke'] }) }
      const all = await registry.inject({ url: '/registry/agents', headers: reader })
      expect(all.statusCode).toBe(200)
      expect(all.json().agents).toMatchObject([{ id, name: 'Alpha' }])
      const one = await registry.inject({ url: `/registry/agents/${id}`, headers: reader })
      expect(one.statusCode).toBe(200)
      expect(one.json()).toMatchObject({ id, name: 'Alpha' })
    })

    it('refuses a token without a2a:invoke even for reading (403)', async () => {
      const reply = await registry.inject({
        url: '/registry/agents',
        headers: { authorization: bearer({ sub: 'nobody', scopes: ['skill:translate'] }) },
      })
      expect(reply.statusCode).toBe(403)
      expect(reply.json().error).toMatchObject({
        code: 'PERMISSION_DENIED',
        requiredScopes: 'a2a:invoke',
      })
    })
  })

  it('answers a malformed agent id or filter with 400, never 5xx', async () => {
    const badId = await registry.inject({ url: '/registry/agents/..%2Fetc' })
    expect(badId.statusCode).toBe(400)
    expect(badId.json().error).toMatchObject({
      code: 'INVALID_REQUEST',
      field: 'path.id',
      message: 'path.id: must be an agent id: 16 hex digits, as registering the agent answered',
    })
    const badFilter = await registry.inject({ url: '/registry/agents?healthy=maybe' })
    expect(badFilter.statusCode).toBe(400)
    expect(badFilter.json().error).toMatchObject({
      code: 'INVALID_REQUEST',
      field: 'query.healthy',
    })
  })
})
