/**
 * What `a2a send` and `a2a stream` send: the text, a --data object, and --file attachments as
 * file parts (base64 bytes, the MIME type from --mime or the file's extension). Size limits are
 * the agent's: a file too large comes back as the agent's own error.
 */
import { readFile } from 'node:fs/promises'
import { basename, extname } from 'node:path'
import type { SendInput } from '../../client/model.js'
import type { FilePart } from '../../domain/model.js'
import { CliFailure, EXIT, usageFailure } from './exit-codes.js'

const MIME_TYPES: Record<string, string> = {
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.csv': 'text/csv',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.css': 'text/css',
  '.xml': 'application/xml',
  '.json': 'application/json',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.ts': 'text/x-typescript',
  '.py': 'text/x-python',
  '.diff': 'text/x-diff',
  '.patch': 'text/x-diff',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.mp4': 'video/mp4',
}

export const mimeTypeOf = (path: string): string =>
  MIME_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream'

export interface MessageOptions {
  text: string[]
  data?: string | undefined
  file?: string[] | undefined
  mime?: string | undefined
  skill?: string | undefined
}

/** The SendInput the options describe; a usage failure when they describe nothing to send. */
export async function messageOf(options: MessageOptions): Promise<SendInput> {
  const text = options.text.join(' ')
  const files = options.file ?? []
  if (options.mime !== undefined && files.length === 0) {
    throw usageFailure('--mime needs a --file')
  }
  const data = options.data === undefined ? undefined : dataOf(options.data)
  if (text.trim() === '' && data === undefined && files.length === 0) {
    // A text given empty is most often an empty command substitution: "$(git diff)", clean tree.
    throw usageFailure(
      options.text.length > 0
        ? 'the text is empty (an empty "$(…)"?), and there is no --data or --file: nothing to send'
        : 'nothing to send: give the text, --data or --file',
    )
  }
  const parts = await Promise.all(files.map((path) => filePart(path, options.mime)))
  return {
    ...(text !== '' && { text }),
    ...(data !== undefined && { data }),
    ...(parts.length > 0 && { parts }),
    ...(options.skill !== undefined && { skill: options.skill }),
  }
}

function dataOf(json: string): Record<string, unknown> {
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch (error) {
    throw usageFailure(`--data is not JSON: ${(error as Error).message}`)
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw usageFailure('--data must be a JSON object, like \'{"n": 1}\'')
  }
  return value as Record<string, unknown>
}

async function filePart(path: string, mime: string | undefined): Promise<FilePart> {
  let bytes: Buffer
  try {
    bytes = await readFile(path)
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message
    throw new CliFailure(`cannot read --file ${path}: ${reason}`, EXIT.noInput)
  }
  return {
    kind: 'file',
    file: {
      name: basename(path),
      mimeType: mime ?? mimeTypeOf(path),
      bytes: bytes.toString('base64'),
    },
  }
}
