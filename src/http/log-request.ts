/**
 * What the log says of a request: Fastify's own fields, with the value of any query parameter
 * that may carry a credential replaced. A client that cannot set headers (a browser's
 * EventSource) sends its token as `?access_token=` (RFC 6750 §2.3); headers are redacted from
 * the log, and so is this.
 */
import type { FastifyRequest } from 'fastify'

/** Query parameters whose value is never logged (compared without case). */
const CREDENTIAL_PARAMETERS =
  /^(access_token|id_token|refresh_token|token|jwt|auth|authorization|api_key|apikey|x-api-key|key|code|password|passwd|secret|client_secret|credential|credentials|session|sessionid|signature|sig)$/i

export const REDACTED = '[redacted]'

/** `url` with the values of its credential parameters replaced. */
export function loggableUrl(url: string): string {
  const start = url.indexOf('?')
  if (start === -1) return url
  const query = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const end = pair.indexOf('=')
      const name = end === -1 ? pair : pair.slice(0, end)
      return end !== -1 && CREDENTIAL_PARAMETERS.test(safeDecode(name))
        ? `${name}=${REDACTED}`
        : pair
    })
  return `${url.slice(0, start)}?${query.join('&')}`
}

const safeDecode = (text: string): string => {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    return text
  }
}

/** Fastify's request serializer, with the URL made loggable. */
export function requestSerializer(request: FastifyRequest) {
  return {
    method: request.method,
    url: loggableUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  }
}
