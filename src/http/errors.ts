/**
 * Turns anything thrown during a request into an A2AError, so each dialect's error table sees
 * one kind of value. Unknown errors become InternalError: their text never reaches a caller.
 */
import {
  A2AError,
  InternalError,
  InvalidRequestError,
  MalformedJsonError,
  PayloadTooLargeError,
  ServiceUnavailableError,
  UnsupportedContentTypeError,
} from '../domain/errors.js'

/** The longest path parameter (a task id) the router matches (Fastify's `maxParamLength`). */
export const MAX_PATH_PARAM_LENGTH = 100

interface FastifyLikeError {
  code?: string
  statusCode?: number
  message?: string
}

export function toA2AError(
  error: unknown,
  context: { bodyLimit: number; contentType?: string; accepts?: string },
): A2AError {
  if (error instanceof A2AError) return error
  const accepts = context.accepts ?? 'application/json'
  const { code, statusCode } = (error ?? {}) as FastifyLikeError
  switch (code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new MalformedJsonError()
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new InvalidRequestError('the request body is empty; send a JSON object')
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new PayloadTooLargeError(context.bodyLimit)
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new UnsupportedContentTypeError(context.contentType, accepts)
    case 'FST_ERR_CTP_INVALID_PARSE_TYPE':
      return new UnsupportedContentTypeError(context.contentType, accepts)
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new InvalidRequestError(
        `a part of the URL path is longer than ${MAX_PATH_PARAM_LENGTH} characters; no id here is that long`,
      )
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_ASYNC_CONSTRAINT':
      return new InvalidRequestError('the URL is malformed')
  }
  if (statusCode === 503) return new ServiceUnavailableError('The service is unavailable')
  if (statusCode === 413) return new PayloadTooLargeError(context.bodyLimit)
  if (statusCode === 415) return new UnsupportedContentTypeError(context.contentType, accepts)
  if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) {
    return new InvalidRequestError('the request is malformed')
  }
  return new InternalError()
}
