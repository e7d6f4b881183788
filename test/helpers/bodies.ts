/** Request bodies in the brief's dialect. */
import { randomUUID } from 'node:crypto'

export const textMessage = (text: string, metadata?: Record<string, unknown>) => ({
  role: 'user' as const,
  parts: [{ type: 'text' as const, text }],
  ...(metadata && { metadata }),
})

export const sendBody = (text: string, extra: Record<string, unknown> = {}) => ({
  id: randomUUID(),
  message: textMessage(text),
  ...extra,
})
