/**
 * The JSON body parser of every dialect: Fastify's own (secure-json-parse, which refuses
 * `__proto__` and `constructor.prototype` keys rather than let them reach an object), with two
 * changes:
 *
 * - A body refused for such a key is valid JSON, so it is not answered as a parse error ("not
 *   valid JSON" would send the caller looking for a syntax error): it is an invalid request
 *   that names the keys.
 * - A route that declares no body schema (a cancel, a DELETE, the JSON-RPC endpoint, which
 *   reads its envelope itself) gets an empty body as undefined, whatever its Content-Type says.
 *   Clients often send `Content-Type: application/json` on every request out of habit; refusing
 *   such a cancel as "the request body is empty" helps nobody. A route that declares a body
 *   still gets that error.
 */
import type { FastifyInstance } from 'fastify'
import { InvalidRequestError } from '../domain/errors.js'

export interface JsonBodyOptions {
  /** The content types parsed as JSON, replacing their parser in this scope. */
  contentTypes?: string[]
}

export const FORBIDDEN_KEY_MESSAGE =
  'the request body has a "__proto__" or "constructor.prototype" key, which this server refuses'

export function useJsonBodyParser(app: FastifyInstance, options: JsonBodyOptions = {}): void {
  const { contentTypes = ['application/json'] } = options
  const json = app.getDefaultJsonParser('error', 'error')
  for (const type of contentTypes) {
    if (app.hasContentTypeParser(type)) app.removeContentTypeParser(type)
  }
  app.addContentTypeParser(contentTypes, { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString()
    if (text === '' && request.routeOptions.schema?.body === undefined) {
      return done(null, undefined)
    }
    return json(request, text, (error, value) => {
      if (error && isJson(text)) return done(new InvalidRequestError(FORBIDDEN_KEY_MESSAGE))
      return done(error, value)
    })
  })
}

/** Whether `text` parses as plain JSON (only asked of a body the secure parser refused). */
function isJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}
