/** Size limits on what a caller may send, checked before anything is stored. */
import { LimitExceededError } from '../domain/errors.js'
import type { Message } from '../domain/model.js'

export interface MessageLimits {
  maxParts: number
  maxTextLength: number
  maxFileBytes: number
}

export function checkMessageLimits(
  message: Message,
  limits: MessageLimits,
  field = 'message',
): void {
  if (message.parts.length > limits.maxParts) {
    throw new LimitExceededError('the number of parts', limits.maxParts, `${field}.parts`)
  }
  message.parts.forEach((part, index) => {
    const at = `${field}.parts[${index}]`
    if (part.kind === 'text' && part.text.length > limits.maxTextLength) {
      throw new LimitExceededError('the text length', limits.maxTextLength, `${at}.text`)
    }
    if (part.kind === 'file' && (part.file.bytes?.length ?? 0) > limits.maxFileBytes) {
      throw new LimitExceededError('the inline file size', limits.maxFileBytes, `${at}.file.bytes`)
    }
  })
}
