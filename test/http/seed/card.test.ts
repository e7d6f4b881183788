import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { testApp } from '../../helpers/app.js'

describe("GET /.well-known/agent.json (the brief's Agent Card)", () => {
  let app: FastifyInstance
  afterEach(() => app.close())

  it('describes the Code Review Agent with review-pr and echo', async () => {
    app = await testApp({ PUBLIC_URL: 'https://review.example.com' })
    const response = await app.inject('/.well-known/agent.json')
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8')
    const card = response.json()
    expect(card).toMatchObject({
      name: 'Code Review Agent',
      description: 'Reviews pull requests for bugs, style violations, and security issues',
      url: 'https://review.example.com',
      version: '1.0.0',
      capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: true },
      authentication: { schemes: ['Bearer'], credentials: null },
      defaultInputModes: ['text', 'data'],
      defaultOutputModes: ['text', 'data'],
    })
    expect(card.skills.map((s: { id: string }) => s.id)).toEqual(['review-pr', 'echo'])
    const reviewPr = card.skills[0]
    expect(reviewPr).toMatchObject({ id: 'review-pr', name: 'Review Pull Request' })
    expect(reviewPr.inputSchema.properties).toHaveProperty('diff')
    expect(reviewPr.inputSchema.properties).toHaveProperty('focus')
  })

  it('is configurable from the environment', async () => {
    app = await testApp({
      AGENT_NAME: 'Echo Agent',
      AGENT_VERSION: '2.1.0',
      AGENT_DOCUMENTATION_URL: 'https://docs.example.com/echo',
      BUNDLED_SKILLS: 'echo',
    })
    const card = (await app.inject('/.well-known/agent.json')).json()
    expect(card).toMatchObject({
      name: 'Echo Agent',
      version: '2.1.0',
      documentationUrl: 'https://docs.example.com/echo',
      url: 'http://localhost:3000',
    })
    expect(card.skills).toHaveLength(1)
  })

  it('sends an ETag, Last-Modified and Cache-Control, and answers 304 to a matching If-None-Match', async () => {
    app = await testApp({ CARD_MAX_AGE_SECONDS: '120' })
    const first = await app.inject('/.well-known/agent.json')
    expect(first.headers['cache-control']).toBe('public, max-age=120')
    expect(first.headers['last-modified']).toMatch(/GMT$/)
    const etag = first.headers.etag as string
    expect(etag).toMatch(/^"[\w-]+"$/)
    const second = await app.inject({
      url: '/.well-known/agent.json',
      headers: { 'if-none-match': etag },
    })
    expect(second.statusCode).toBe(304)
    expect(second.body).toBe('')
    expect(second.headers.etag).toBe(etag)
  })

  it('changes its ETag when the card changes', async () => {
    app = await testApp()
    const a = (await app.inject('/.well-known/agent.json')).headers.etag
    await app.close()
    app = await testApp({ AGENT_VERSION: '9.9.9' })
    const b = (await app.inject('/.well-known/agent.json')).headers.etag
    expect(a).not.toBe(b)
  })
})
