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

/** The agent's side of a conversation turn. */
export const agentMessage = (messageId: string, parts: Part[]): Message => ({
  messageId,
  role: 'agent',
  parts,
})
