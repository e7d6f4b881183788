/**
 * Fastify's `clientErrorHandler`: a request that Node's HTTP parser refused before Fastify saw
 * it (bytes that are not HTTP, headers past Node's 16 KiB, a request not sent in full within
 * REQUEST_TIMEOUT_MS). It is answered, and its connection closed, in the error format of the
 * dialect whose path the request line names, like every other error, instead of Fastify's own
 * `{statusCode, error, message}` body. A request line that cannot be read (or a timeout, which
 * keeps none) gets the brief's format.
 */
import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { ConnectionError, FastifyInstance } from 'fastify'
import type { A2AError } from '../domain/errors.js'
import { HeadersTooLargeError, MalformedHttpError, RequestTimeoutError } from '../domain/errors.js'
import { newId } from '../domain/ids.js'
import { errorReplyForPath } from './framework-errors.js'

/** How much of the raw request is read for its request line and A2A-Version header. */
const HEAD_BYTES = 4096
const REQUEST_LINE = /^[A-Z]+ (\/\S*) HTTP\/\d\.\d\r?\n/
const A2A_VERSION = /^a2a-version:[ \t]*([^\r\n]*?)[ \t]*\r?$/im

export function clientErrorHandler(
  this: FastifyInstance,
  error: ConnectionError,
  socket: Socket,
): void {
  // A reset connection has no one to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const id = newId()
  this.log.debug({ err: error, reqId: id }, 'request refused by the HTTP parser')
  if (socket.writable) {
    // The bytes the parser had read, when it kept them (Fastify's type says otherwise).
    const raw: unknown = error.rawPacket
    const head = Buffer.isBuffer(raw) ? raw.toString('latin1', 0, HEAD_BYTES) : ''
    const version = A2A_VERSION.exec(head)?.[1]
    const request = {
      id,
      raw: { url: REQUEST_LINE.exec(head)?.[1] },
      headers: version === undefined ? {} : { 'a2a-version': version },
      query: {},
    }
    const { statusCode, body } = errorReplyForPath(request, refusalOf(error))
    const json = JSON.stringify(body)
    socket.write(
      `HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(json)}\r\n` +
        `Connection: close\r\n\r\n${json}`,
    )
  }
  socket.destroy(error)
}

function refusalOf(error: ConnectionError): A2AError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new HeadersTooLargeError()
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new RequestTimeoutError()
    default:
      return new MalformedHttpError()
  }
}
