/**
 * How a card, a task and a stream's events read in the terminal: one line per state, agent
 * messages after their state, artifacts as indented blocks (text as text, data as indented
 * JSON, files by name, type and size). No timestamps, so the output is stable.
 */
import type { AgentCard } from '../../client/card.js'
import type { RemoteMessage, RemoteTask } from '../../client/model.js'
import type { Artifact, FileContent, Part, TaskStatus } from '../../domain/model.js'

const indent = (lines: string[], by = '  '): string[] => lines.map((line) => `${by}${line}`)

function fileLine(file: FileContent): string {
  const name = file.name ?? '(unnamed)'
  const type = file.mimeType ?? 'unknown type'
  if (file.bytes !== undefined) {
    const size = Buffer.from(file.bytes, 'base64').length
    return `file ${name} (${type}, ${size} bytes)`
  }
  return `file ${name} (${type}) at ${file.uri ?? '?'}`
}

/** The lines of some parts: text as it is, data as indented JSON, files by name. */
export function partLines(parts: readonly Part[]): string[] {
  return parts.flatMap((part) => {
    if (part.kind === 'text') return part.text.replace(/\n$/, '').split('\n')
    if (part.kind === 'data') return JSON.stringify(part.data, null, 2).split('\n')
    return [fileLine(part.file)]
  })
}

/** `[state]`, followed by the status message when there is one (more lines indented). */
export function statusLines(status: TaskStatus): string[] {
  const [first, ...rest] = partLines(status.message?.parts ?? [])
  const head = `[${status.state}]`
  return [first === undefined ? head : `${head} ${first}`, ...indent(rest)]
}

/** An artifact (or a chunk of one, when `append`) as a heading and its indented parts. */
export function artifactLines(artifact: Artifact, append = false): string[] {
  const name = artifact.name ?? artifact.artifactId
  return [`artifact ${name}${append ? ' (more)' : ''}:`, ...indent(partLines(artifact.parts))]
}

/** A task as `send`, `get` and `cancel` show it: its id, its artifacts, then its state. */
export function taskLines(task: RemoteTask): string[] {
  return [
    `task ${task.id}`,
    ...task.artifacts.flatMap((artifact) => artifactLines(artifact)),
    ...statusLines(task.status),
  ]
}

/** A direct reply (A2A 0.2+ agents may answer with a message instead of a task). */
export function replyLines(message: RemoteMessage): string[] {
  return ['reply:', ...indent(partLines(message.parts))]
}

/** The question of a task that waits for input: its status message, as text. */
export function questionOf(status: TaskStatus): string {
  const lines = partLines(status.message?.parts ?? [])
  return lines.length > 0 ? lines.join('\n') : '(the agent asked for input without a question)'
}

export function cardLines(card: AgentCard): string[] {
  const width = Math.max(0, ...card.skills.map((skill) => skill.id.length))
  const skillLines = card.skills.flatMap((skill) => {
    const tags = skill.tags && skill.tags.length > 0 ? ` [${skill.tags.join(', ')}]` : ''
    const description = skill.description ? ` - ${skill.description}` : ''
    return [`  ${skill.id.padEnd(width)}  ${skill.name}${description}${tags}`]
  })
  return [
    `${card.name}${card.version ? ` ${card.version}` : ''}`,
    ...(card.description ? [card.description] : []),
    '',
    `Dialect:   ${card.dialect} at ${card.endpoint}`,
    `Streaming: ${card.streaming ? 'yes' : 'no'}`,
    `Card:      ${card.source}`,
    '',
    card.skills.length > 0 ? `Skills (${card.skills.length}):` : 'Skills: none',
    ...skillLines,
  ]
}
