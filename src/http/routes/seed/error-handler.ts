/** Every failure, as the brief's dialect reports it: `{error: {code, message, ...}}`. */
import { seedErrorReply } from '../../../protocol/seed/errors.js'
import { dialectErrorHandler } from '../../error-handler.js'

export const seedErrorHandler = (bodyLimit: number) =>
  dialectErrorHandler((error, request) => seedErrorReply(error, request.id), { bodyLimit })
