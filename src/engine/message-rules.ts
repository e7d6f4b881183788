/**
 * The rules A2A 0.2+ puts on an incoming message, apart from the task lifecycle: which task id a
 * new message gets, whether a message is a retry of one held, and whether the skill accepts its
 * parts' media types.
 */
import { hash } from 'node:crypto'
import { canonicalJson } from '../domain/canonical-json.js'
import { ContentTypeNotSupportedError } from '../domain/errors.js'
import { formatUuid } from '../domain/ids.js'
import type { Message, Part } from '../domain/model.js'

/** The namespace of task ids derived from messages (a fixed, random UUID). */
const MESSAGE_TASK_NAMESPACE = Buffer.from('6f1c7f9e3b8a4d2e9c612a5f0b7d4e13', 'hex')

/**
 * The id of the task a new message creates: a UUIDv5 of (caller, messageId). A retried send
 * (same caller, same messageId) names the same task, so the TaskStore's atomic `create` is the
 * de-duplication check, in memory and in Redis alike, with no index to keep.
 */
export function messageTaskId(owner: string | undefined, messageId: string): string {
  return uuidV5(`${owner ?? ''}\n${messageId}`, MESSAGE_TASK_NAMESPACE)
}

/**
 * Whether `retried` says what `held` says (its parts, metadata and references): a message sent
 * again under the same messageId is a retry only then.
 */
export function sameContent(held: Message, retried: Message): boolean {
  const content = ({ parts, metadata, referenceTaskIds }: Message) =>
    canonicalJson({ metadata, parts, referenceTaskIds })
  return content(held) === content(retried)
}

/** RFC 9562 §5.5: SHA-1 of namespace + name, version 5, RFC 4122 variant. */
export function uuidV5(name: string, namespace: Buffer): string {
  const bytes = hash('sha1', Buffer.concat([namespace, Buffer.from(name, 'utf8')]), 'buffer')
  return formatUuid(bytes, 0, 5)
}

/** A part's media type as a skill's `inputModes` name it. */
export function mediaTypeOf(part: Part): string {
  switch (part.kind) {
    case 'text':
      return 'text/plain'
    case 'data':
      return 'application/json'
    case 'file':
      return part.file.mimeType ?? 'application/octet-stream'
  }
}

const accepts = (mode: string, type: string): boolean =>
  mode === type ||
  mode === '*/*' ||
  (mode.endsWith('/*') && type.startsWith(mode.slice(0, -1))) ||
  // Parameters (`text/plain; charset=utf-8`) do not change what a skill accepts.
  type.split(';')[0]!.trim() === mode

/** Throws ContentTypeNotSupportedError for the first part the accepted modes do not cover. */
export function checkMediaTypes(parts: readonly Part[], accepted: readonly string[]): void {
  parts.forEach((part, index) => {
    const type = mediaTypeOf(part).toLowerCase()
    if (!accepted.some((mode) => accepts(mode.toLowerCase(), type))) {
      throw new ContentTypeNotSupportedError(type, `message.parts[${index}]`, accepted)
    }
  })
}
