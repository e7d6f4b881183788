/** Small constructors and readers for message parts, used by skills and codecs alike. */
import type { DataPart, FileContent, Message, Part, TextPart } from './model.js'

export const textPart = (text: string): TextPart => ({ kind: 'text', text })

export const dataPart = (data: Record<string, unknown>): DataPart => ({ kind: 'data', data })

/** What a message carries, flattened: its texts joined by newlines, its data parts merged. */
export interface MessageContent {
  text: string
  data: Record<string, unknown>
  files: FileContent[]
}

export function contentOf(parts: readonly Part[]): MessageContent {
  const texts: string[] = []
  const files: FileContent[] = []
  let data: Record<string, unknown> = {}
  for (const part of parts) {
    if (part.kind === 'text') texts.push(part.text)
    else if (part.kind === 'data') data = { ...data, ...part.data }
    else files.push(part.file)
  }
  return { text: texts.join('\n'), data, files }
}

/**
 * The data input of a task's latest user message: the data of its user messages merged in
 * order, a later field winning. An answer to input-required thus carries what the task was
 * given before (what a skill's inputSchema checks, and what it reads as `ctx.input.data`).
 */
export function userDataOf(messages: readonly Message[]): Record<string, unknown> {
  let data: Record<string, unknown> = {}
  for (const message of messages) {
    if (message.role === 'user') data = { ...data, ...contentOf(message.parts).data }
  }
  return data
}

/** The agent's side of a conversation turn. */
export const agentMessage = (messageId: string, parts: Part[]): Message => ({
  messageId,
  role: 'agent',
  parts,
})
