/** GET /.well-known/agent-card.json: the 0.3 or 1.0 shape by A2A-Version, with cache headers. */
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { echoSkill } from '../../src/skills/echo/index.js'
import { testApp } from '../helpers/app.js'

const CARD = '/.well-known/agent-card.json'

describe('GET /.well-known/agent-card.json', () => {
  let app: FastifyInstance
  afterEach(() => app.close())

  it('serves the 1.0 card for A2A-Version: 1.0, listing every interface', async () => {
    app = await testApp({ PUBLIC_URL: 'https://agent.example' }, { skills: [echoSkill] })
    const response = await app.inject({
      method: 'GET',
      url: CARD,
      headers: { 'a2a-version': '1.0' },
    })
    expect(response.statusCode).toBe(200)
    const card = response.json()
    expect(card.supportedInterfaces).toEqual([
      {
        url: 'https://agent.example/a2a/jsonrpc',
        protocolBinding: 'JSONRPC',
        protocolVersion: '1.0',
      },
      {
        url: 'https://agent.example/a2a/rest',
        protocolBinding: 'HTTP+JSON',
        protocolVersion: '1.0',
      },
      {
        url: 'https://agent.example/a2a/jsonrpc',
        protocolBinding: 'JSONRPC',
        protocolVersion: '0.3',
      },
    ])
    expect(card.capabilities).toEqual({
      streaming: true,
      pushNotifications: false,
      extendedAgentCard: true,
    })
    expect(card).not.toHaveProperty('protocolVersion')
  })

  it('serves the 0.3 card without the header', async () => {
    app = await testApp({ PUBLIC_URL: 'https://agent.example' }, { skills: [echoSkill] })
    const card = (await app.inject({ method: 'GET', url: CARD })).json()
    expect(card).toMatchObject({
      protocolVersion: '0.3.0',
      url: 'https://agent.example/a2a/jsonrpc',
      preferredTransport: 'JSONRPC',
      supportsAuthenticatedExtendedCard: true,
      skills: [{ id: 'echo' }],
    })
  })

  it('serves the 1.0 card without the header when AGENT_CARD_DEFAULT_VERSION=1.0', async () => {
    app = await testApp({ AGENT_CARD_DEFAULT_VERSION: '1.0' }, { skills: [echoSkill] })
    const card = (await app.inject({ method: 'GET', url: CARD })).json()
    expect(card).toHaveProperty('supportedInterfaces')
    expect(card).not.toHaveProperty('url')
  })

  it('varies on A2A-Version, with an ETag per shape, Cache-Control and Last-Modified', async () => {
    app = await testApp({ CARD_MAX_AGE_SECONDS: '60' }, { skills: [echoSkill] })
    const v10 = await app.inject({ method: 'GET', url: CARD, headers: { 'a2a-version': '1.0' } })
    const v03 = await app.inject({ method: 'GET', url: CARD })
    for (const response of [v10, v03]) {
      expect(response.headers.vary).toBe('A2A-Version')
      expect(response.headers['cache-control']).toBe('public, max-age=60')
      expect(response.headers['last-modified']).toMatch(/GMT$/)
      expect(response.headers.etag).toMatch(/^"[\w-]+"$/)
    }
    expect(v10.headers.etag).not.toBe(v03.headers.etag)
    const cached = await app.inject({
      method: 'GET',
      url: CARD,
      headers: { 'a2a-version': '1.0', 'if-none-match': String(v10.headers.etag) },
    })
    expect(cached.statusCode).toBe(304)
  })

  it('answers 304 to If-None-Match as RFC 9110 reads it: lists, weak tags, *; else If-Modified-Since', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const v10 = await app.inject({ method: 'GET', url: CARD, headers: { 'a2a-version': '1.0' } })
    const etag = String(v10.headers.etag)
    const lastModified = String(v10.headers['last-modified'])
    const status = async (headers: Record<string, string>) =>
      (
        await app.inject({
          method: 'GET',
          url: CARD,
          headers: { 'a2a-version': '1.0', ...headers },
        })
      ).statusCode
    expect(await status({ 'if-none-match': `W/${etag}` })).toBe(304)
    expect(await status({ 'if-none-match': `"other", ${etag}` })).toBe(304)
    expect(await status({ 'if-none-match': '*' })).toBe(304)
    expect(await status({ 'if-modified-since': lastModified })).toBe(304)
    // Another shape's tag is not this one's; If-None-Match, when sent, decides.
    expect(await status({ 'if-none-match': String((await app.inject(CARD)).headers.etag) })).toBe(
      200,
    )
    expect(await status({ 'if-none-match': '"other"', 'if-modified-since': lastModified })).toBe(
      200,
    )
    expect(await status({ 'if-modified-since': 'Thu, 01 Jan 1970 00:00:00 GMT' })).toBe(200)
    expect(await status({ 'if-modified-since': 'not a date' })).toBe(200)
  })

  it('renders every card from the same declaration as the brief’s agent.json', async () => {
    app = await testApp({ AGENT_NAME: 'One Agent' }, { skills: [echoSkill] })
    const seed = (await app.inject({ method: 'GET', url: '/.well-known/agent.json' })).json()
    const v10 = (
      await app.inject({ method: 'GET', url: CARD, headers: { 'a2a-version': '1.0' } })
    ).json()
    const v03 = (await app.inject({ method: 'GET', url: CARD })).json()
    for (const card of [v10, v03]) {
      expect(card.name).toBe(seed.name)
      expect(card.skills.map((s: { id: string }) => s.id)).toEqual(
        seed.skills.map((s: { id: string }) => s.id),
      )
    }
  })

  it('answers an unsupported A2A-Version with 400 VERSION_NOT_SUPPORTED', async () => {
    app = await testApp({}, { skills: [echoSkill] })
    const response = await app.inject({
      method: 'GET',
      url: CARD,
      headers: { 'a2a-version': '9.9' },
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().error.details[0].reason).toBe('VERSION_NOT_SUPPORTED')
  })
})
