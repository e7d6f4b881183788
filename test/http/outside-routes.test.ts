/**
 * Errors outside any route (no route, a refused token before one is found, a URL that cannot
 * be decoded) take the shape of the dialect whose path the URL is under.
 */
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testApp } from '../helpers/app.js'

describe('errors outside any route', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await testApp()
  })
  afterAll(() => app.close())

  it('answers an unknown path under the JSON-RPC endpoint with a JSON-RPC error, 404', async () => {
    const url = '/a2a/jsonrpc/zzz/more'
    const response = await app.inject({ method: 'POST', url, headers: { 'a2a-version': '1.0' } })
    expect(response.statusCode).toBe(404)
    expect(response.json()).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32601, message: `No route for POST ${url}` },
    })
  })

  it('answers another method than POST at the JSON-RPC endpoint with 405 and Allow', async () => {
    for (const method of ['GET', 'OPTIONS', 'PUT'] as const) {
      const response = await app.inject({
        method,
        url: '/a2a/jsonrpc',
        headers: { 'a2a-version': '1.0' },
      })
      expect(response.statusCode).toBe(405)
      expect(response.headers.allow).toBe('POST')
      expect(response.json()).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32600,
          message: `${method} is not served at /a2a/jsonrpc; it takes POST`,
          data: [{ reason: 'METHOD_NOT_ALLOWED' }],
        },
      })
    }
  })

  it('answers a wrong method on a seed route with 405 naming the right one', async () => {
    const put = await app.inject({ method: 'PUT', url: '/tasks/send', payload: {} })
    expect(put.statusCode).toBe(405)
    expect(put.headers.allow).toBe('POST')
    expect(put.json().error).toMatchObject({
      code: 'METHOD_NOT_ALLOWED',
      message: 'PUT is not served at /tasks/send; it takes POST',
      allowed: ['POST'],
    })
    const card = await app.inject({ method: 'POST', url: '/.well-known/agent.json' })
    expect(card.statusCode).toBe(405)
    expect(card.headers.allow).toBe('GET, HEAD')
  })

  it('answers GET of a POST-only seed path with 405, though GET /tasks/:id matches it too', async () => {
    for (const path of ['/tasks/send', '/tasks/sendSubscribe']) {
      const get = await app.inject({ url: path })
      expect(get.statusCode).toBe(405)
      expect(get.headers.allow).toBe('POST')
      expect(get.json().error).toMatchObject({
        code: 'METHOD_NOT_ALLOWED',
        message: `GET is not served at ${path}; it takes POST`,
      })
    }
    // A task id that is not one is still the id's fault.
    const notAnId = await app.inject({ url: '/tasks/not-a-task?historyLength=1' })
    expect(notAnId.statusCode).toBe(400)
    expect(notAnId.json().error).toMatchObject({ code: 'INVALID_REQUEST', field: 'path.id' })
  })

  it('answers a missing token in the JSON-RPC shape there', async () => {
    const rpc = await app.inject({
      method: 'POST',
      url: '/a2a/jsonrpc',
      headers: { authorization: '' },
      payload: {},
    })
    expect(rpc.statusCode).toBe(401)
    expect(rpc.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32030 } })
  })

  it('answers a path no route serves 404, and another method 405, with or without a token', async () => {
    // A wrong URL is said to be wrong, not hidden behind a token problem.
    const seed = await app.inject({ url: '/nowhere', headers: { authorization: '' } })
    expect(seed.statusCode).toBe(404)
    expect(seed.json().error).toMatchObject({ code: 'ROUTE_NOT_FOUND' })
    const rpc = await app.inject({ url: '/a2a/jsonrpc', headers: { authorization: '' } })
    expect(rpc.statusCode).toBe(405)
    expect(rpc.headers.allow).toBe('POST')
    const card = await app.inject({
      url: '/nothing/.well-known/agent-card.json',
      headers: { authorization: 'Bearer not-a-token' },
    })
    expect(card.statusCode).toBe(404)
  })

  it("answers a URL that cannot be decoded in the shape of the caller's JSON-RPC version", async () => {
    const v03 = await app.inject({ method: 'POST', url: '/a2a/jsonrpc/%ZZ', payload: {} })
    expect(v03.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32602, message: 'the URL is malformed' },
    })
    const v10 = await app.inject({
      method: 'POST',
      url: '/a2a/jsonrpc/%ZZ',
      headers: { 'a2a-version': '1.0' },
      payload: {},
    })
    expect(v10.json().error).toMatchObject({
      code: -32602,
      data: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo' }],
    })
    const rest = await app.inject({ url: '/a2a/rest/tasks/%ZZ' })
    expect(rest.statusCode).toBe(400)
    expect(rest.json().error).toMatchObject({ status: 'INVALID_ARGUMENT' })
  })

  it('keeps the brief shape outside the A2A paths', async () => {
    const response = await app.inject({ url: '/a2a/nowhere' })
    expect(response.statusCode).toBe(404)
    expect(response.json().error).toMatchObject({ code: 'ROUTE_NOT_FOUND' })
  })

  it('says a path segment is too long to be an id, in each dialect', async () => {
    const long = 'a'.repeat(101)
    const message = 'a part of the URL path is longer than 100 characters; no id here is that long'
    const seed = await app.inject({ url: `/tasks/${long}` })
    expect(seed.statusCode).toBe(400)
    expect(seed.json().error).toMatchObject({ code: 'INVALID_REQUEST', message })
    const rest = await app.inject({
      url: `/a2a/rest/tasks/${long}`,
      headers: { 'a2a-version': '1.0' },
    })
    expect(rest.statusCode).toBe(400)
    expect(rest.json().error).toMatchObject({ status: 'INVALID_ARGUMENT', message })
    // 100 characters is still a path parameter: the route says what is wrong with it.
    const hundred = await app.inject({ url: `/tasks/${'a'.repeat(100)}` })
    expect(hundred.json().error.message).toMatch(/UUID/)
  })
})
