/**
 * The JSON body parser of every dialect: Fastify's own (secure-json-parse, which refuses
 * `__proto__` and `constructor.prototype` keys rather than let them reach an object), with these
 * changes:
 *
 * - JSON is UTF-8 (RFC 8259 §8.1): a body that is not valid UTF-8 is malformed JSON, rather than
 *   read with U+FFFD in place of its bad bytes, and a `charset` other than UTF-8 is refused (415),
 *   as is a compressed body (`Content-Encoding`, 415), rather than reported as "not valid JSON".
 * - A body refused for such a key is valid JSON, so it is not answered as a parse error ("not
 *   valid JSON" would send the caller looking for a syntax error): it is an invalid request
 *   that names the keys.
 * - A route that declares no body schema (a cancel, a DELETE, the JSON-RPC endpoint, which
 *   reads its envelope itself) gets an empty body as undefined, whatever its Content-Type says.
 *   Clients often send `Content-Type: application/json` on every request out of habit; refusing
 *   such a cancel as "the request body is empty" helps nobody. A route that declares a body
 *   still gets that error.
 */
import { isUtf8 } from 'node:buffer'
import type { IncomingHttpHeaders } from 'node:http'
import type { FastifyInstance } from 'fastify'
import type { A2AError } from '../domain/errors.js'
import {
  InvalidRequestError,
  MalformedJsonError,
  UnsupportedContentEncodingError,
  UnsupportedContentTypeError,
} from '../domain/errors.js'

export interface JsonBodyOptions {
  /** The content types parsed as JSON, replacing their parser in this scope. */
  contentTypes?: string[]
}

export const FORBIDDEN_KEY_MESSAGE =
  'the request body has a "__proto__" or "constructor.prototype" key, which this server refuses'

const NULL_BODY_MESSAGE = 'the request body is null; send a JSON object'

export function useJsonBodyParser(app: FastifyInstance, options: JsonBodyOptions = {}): void {
  const { contentTypes = ['application/json'] } = options
  const json = app.getDefaultJsonParser('error', 'error')
  for (const type of contentTypes) {
    if (app.hasContentTypeParser(type)) app.removeContentTypeParser(type)
  }
  app.addContentTypeParser<Buffer>(contentTypes, { parseAs: 'buffer' }, (request, body, done) => {
    const refusal = encodingProblem(request.headers)
    if (refusal) return done(refusal)
    if (!isUtf8(body)) return done(new MalformedJsonError('The request body is not valid UTF-8'))
    const text = body.toString('utf8')
    if (text === '' && request.routeOptions.schema?.body === undefined) {
      return done(null, undefined)
    }
    return json(request, text, (error, value) => {
      if (error && isJson(text)) return done(new InvalidRequestError(FORBIDDEN_KEY_MESSAGE))
      // Validation gets a request without a body as null too, and calls it empty: this one is not.
      if (value === null && request.routeOptions.schema?.body !== undefined) {
        return done(new InvalidRequestError(NULL_BODY_MESSAGE))
      }
      return done(error, value)
    })
  })
}

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i
const UTF8 = /^utf-?8$/i

/** A body this parser cannot read as it was sent: compressed, or in another charset. */
function encodingProblem(headers: IncomingHttpHeaders): A2AError | undefined {
  const encoding = headers['content-encoding']?.trim()
  if (encoding && encoding.toLowerCase() !== 'identity') {
    return new UnsupportedContentEncodingError(encoding)
  }
  const contentType = headers['content-type']
  const charset = contentType && CHARSET.exec(contentType)?.[1]
  if (charset && !UTF8.test(charset)) {
    return new UnsupportedContentTypeError(contentType, 'JSON in UTF-8 (charset=utf-8, or none)')
  }
  return undefined
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
