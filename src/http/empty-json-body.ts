/**
 * Fastify's JSON parser, except that a route which takes no body (it declares no body schema:
 * a cancel, a DELETE) accepts an empty one whatever its Content-Type says. Clients often send
 * `Content-Type: application/json` on every request out of habit; refusing such a cancel as "the
 * request body is empty" helps nobody. A route that declares a body still gets that error.
 */
import type { FastifyInstance } from 'fastify'

export function allowEmptyJsonWithoutBody(
  app: FastifyInstance,
  contentTypes: string[] = ['application/json'],
): void {
  const json = app.getDefaultJsonParser('error', 'error')
  for (const type of contentTypes) {
    if (app.hasContentTypeParser(type)) app.removeContentTypeParser(type)
  }
  app.addContentTypeParser(contentTypes, { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString()
    if (text === '' && request.routeOptions.schema?.body === undefined) {
      return done(null, undefined)
    }
    return json(request, text, done)
  })
}
