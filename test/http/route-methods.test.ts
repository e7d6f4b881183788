/** Which methods serve a path, read from find-my-way route patterns as this server writes them. */
import { describe, expect, it } from 'vitest'
import { RouteMethods } from '../../src/http/route-methods.js'

describe('RouteMethods', () => {
  const routes = new RouteMethods()
  routes.add('POST', '/tasks/send')
  routes.add(['GET', 'HEAD'], '/tasks/:id')
  routes.add('POST', '/tasks/:id/cancel')
  routes.add('POST', '/a2a/rest/message::send')
  routes.add('POST', '/a2a/rest/:tenant/message::send')
  routes.add(['GET', 'POST'], '/a2a/rest/tasks/:id')
  routes.add('GET', '/files/*')

  it('matches a parameter to one segment, :: to a colon, * to the rest', () => {
    expect(routes.allowed('/tasks/abc')).toEqual(['GET', 'HEAD'])
    expect(routes.allowed('/tasks/abc/cancel')).toEqual(['POST'])
    expect(routes.allowed('/a2a/rest/message:send')).toEqual(['POST'])
    expect(routes.allowed('/a2a/rest/acme/message:send')).toEqual(['POST'])
    expect(routes.allowed('/a2a/rest/tasks/abc:cancel')).toEqual(['GET', 'POST'])
    expect(routes.allowed('/files/a/b.txt')).toEqual(['GET'])
  })

  it('lets a route without parameters speak for its path alone, as the router prefers it', () => {
    expect(routes.allowed('/tasks/send')).toEqual(['POST'])
  })

  it('knows no methods for a path no route serves', () => {
    expect(routes.allowed('/tasks/abc/def')).toEqual([])
    expect(routes.allowed('/a2a/rest/message.send')).toEqual([])
    expect(routes.allowed('/')).toEqual([])
  })
})
