/**
 * A JSON document rendered once and served from memory (the Agent Cards, which peers poll as
 * their health probe): its ETag and Last-Modified, and the conditional GET of RFC 9110 §13.2.2.
 * `If-None-Match` (a list of tags, weak or strong, or `*`) is compared with the weak function;
 * `If-Modified-Since` counts only when `If-None-Match` is absent.
 */
import { createHash } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import type { FastifyReply, FastifyRequest } from 'fastify'

export interface CachedDocument {
  body: string
  /** A strong tag of the body: `"…"`. */
  etag: string
  /** An HTTP date, whole seconds. */
  lastModified: string
}

export function cachedDocument(value: unknown, modified: Date = new Date()): CachedDocument {
  const body = JSON.stringify(value)
  const digest = createHash('sha256').update(body).digest('base64url').slice(0, 27)
  return { body, etag: `"${digest}"`, lastModified: modified.toUTCString() }
}

/** The entity tags of an If-None-Match list, without their weak prefix. */
const ENTITY_TAG = /(?:W\/)?("[^"]*")/g

/** Whether a GET with these headers may be answered 304 Not Modified. */
export function isNotModified(headers: IncomingHttpHeaders, document: CachedDocument): boolean {
  const ifNoneMatch = headers['if-none-match']
  if (ifNoneMatch !== undefined) {
    if (ifNoneMatch.trim() === '*') return true
    return [...ifNoneMatch.matchAll(ENTITY_TAG)].some(([, tag]) => tag === document.etag)
  }
  const ifModifiedSince = headers['if-modified-since']
  if (ifModifiedSince === undefined) return false
  const since = Date.parse(ifModifiedSince)
  return !Number.isNaN(since) && Date.parse(document.lastModified) <= since
}

/** Answers with `document`, or 304 when the request's validators match it. */
export function sendDocument(
  request: FastifyRequest,
  reply: FastifyReply,
  document: CachedDocument,
  cacheControl: string,
): FastifyReply {
  reply
    .header('etag', document.etag)
    .header('last-modified', document.lastModified)
    .header('cache-control', cacheControl)
  if (isNotModified(request.headers, document)) return reply.code(304).send()
  return reply.type('application/json; charset=utf-8').send(document.body)
}
