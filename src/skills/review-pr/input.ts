/**
 * What the user asked for, read from the whole conversation: a continuation turn carries only the
 * answer ("python"), so the diff, focus and language are gathered across every user message.
 */
import type { FileContent, Message } from '../../domain/model.js'
import { contentOf } from '../../domain/parts.js'
import type { DiffFile } from './diff.js'
import { diffFromField, findDiff, type FoundDiff } from './find-diff.js'
import { languageFromText, normalizeLanguage } from './language-names.js'
import type { Language } from './languages.js'
import { CATEGORIES, type Category } from './rule.js'

export interface ReviewRequest {
  /** Undefined until the user has sent one. */
  files?: DiffFile[]
  /** The diff was only changed lines, without headers: its line numbers count from 1. */
  headerless?: true
  focus: Category[]
  /** Named in a data part or in the user's words; fills in files we cannot place ourselves. */
  language?: Language
  /** A language named in a data part that we have no rules for (kept to explain a question). */
  unknownLanguage?: string
}

export type ReadResult = { ok: true; request: ReviewRequest } | { ok: false; reason: string }

interface Turn {
  data: Record<string, unknown>
  found?: FoundDiff
  /** The user's own words in this message, outside the diff. */
  prose: string
}

export function readRequest(message: Message, history: readonly Message[]): ReadResult {
  const messages = history.filter((entry) => entry.role === 'user')
  if (messages.at(-1)?.messageId !== message.messageId) messages.push(message)

  const turns: Turn[] = []
  for (const entry of messages) {
    const turn = readTurn(entry)
    if (typeof turn === 'string') return { ok: false, reason: turn }
    turns.push(turn)
  }
  // The first diff sent is the one under review; later turns answer our questions about it.
  const found = turns.find((turn) => turn.found)?.found

  const latestFocus = turns.findLast((turn) => turn.data.focus !== undefined)?.data.focus
  const focus = latestFocus === undefined ? [...CATEGORIES] : parseFocus(latestFocus)
  if (typeof focus === 'string') return { ok: false, reason: focus }

  const { files, headerless } = found ?? {}
  return { ok: true, request: { files, headerless, focus, ...latestLanguage(turns) } }
}

function readTurn(message: Message): Turn | string {
  const { text, data, files } = contentOf(message.parts)
  if (data.language !== undefined && typeof data.language !== 'string') {
    return 'The "language" field must be a string such as "python"'
  }
  if (data.diff !== undefined) {
    if (typeof data.diff !== 'string') return 'The "diff" field must be a string'
    const found = diffFromField(data.diff)
    if (!found) {
      if (COMBINED_DIFF.test(data.diff)) return COMBINED_DIFF_REFUSAL
      return NOT_A_DIFF
    }
    return { data, found, prose: text }
  }
  const found = findDiff(text)
  if (!found && COMBINED_DIFF.test(text)) return COMBINED_DIFF_REFUSAL
  if (found) return { data, found, prose: found.prose }
  for (const content of diffFiles(files)) {
    const inFile = diffFromField(content)
    if (inFile) return { data, found: inFile, prose: text }
    if (COMBINED_DIFF.test(content)) return COMBINED_DIFF_REFUSAL
  }
  return { data, prose: text }
}

/** The media types of a diff sent as a file (`a2a send --file change.patch`). */
export const DIFF_MEDIA_TYPES = ['text/x-diff', 'text/x-patch']

/**
 * The text of the message's diff files: sent with their bytes, as a diff media type, or as text
 * named like a diff. A file given by URI is not fetched (the agent reads no URL a caller names).
 */
function diffFiles(files: readonly FileContent[]): string[] {
  return files.flatMap(({ bytes, mimeType, name }) => {
    if (bytes === undefined) return []
    const type = mimeType?.split(';')[0]?.trim().toLowerCase()
    const named = name !== undefined && /\.(diff|patch)$/i.test(name)
    const isDiff = (type !== undefined && DIFF_MEDIA_TYPES.includes(type)) || named
    return isDiff ? [Buffer.from(bytes, 'base64').toString('utf8')] : []
  })
}

const NOT_A_DIFF =
  'The "diff" field does not contain a unified diff (no ---/+++ file headers or @@ hunks): ' +
  'send the output of git diff or diff -u, or only the changed lines, each starting with + or -'

/** What `git show` prints for a merge commit: one diff against all its parents at once. */
const COMBINED_DIFF = /^diff --(?:cc|combined) /m
const COMBINED_DIFF_REFUSAL =
  'This is the combined diff of a merge commit (diff --cc), which review-pr does not read: ' +
  'send the diff against one parent instead, e.g. git diff HEAD^1 HEAD'

/** An answer to the question, by the look of it: a few words on one line. */
const MAX_ANSWER_LENGTH = 40

/**
 * Newest first: what the user said last wins, and a data field beats their prose. A short answer
 * in prose that names no language we know (a reply to the question, after the first message) is
 * the unknown language the next question names.
 */
function latestLanguage(
  turns: readonly Turn[],
): Pick<ReviewRequest, 'language' | 'unknownLanguage'> {
  let unknownLanguage: string | undefined
  for (const [index, turn] of [...turns.entries()].reverse()) {
    const named = turn.data.language
    if (typeof named === 'string' && named.trim() !== '') {
      const language = normalizeLanguage(named)
      if (language) return { language }
      unknownLanguage ??= named.trim()
    }
    const language = languageFromText(turn.prose)
    if (language) return { language }
    const answer = turn.prose.trim()
    if (
      index > 0 &&
      answer !== '' &&
      answer.length <= MAX_ANSWER_LENGTH &&
      !answer.includes('\n')
    ) {
      unknownLanguage ??= answer
    }
  }
  return unknownLanguage === undefined ? {} : { unknownLanguage }
}

function parseFocus(value: unknown): Category[] | string {
  const expected = `expected one or more of: ${CATEGORIES.join(', ')}`
  if (!Array.isArray(value)) return `The "focus" field must be an array (${expected})`
  const chosen = new Set<Category>()
  for (const item of value as unknown[]) {
    const name = typeof item === 'string' ? item.trim().toLowerCase() : undefined
    const category = CATEGORIES.find((candidate) => candidate === name)
    if (!category) return `Unknown focus ${JSON.stringify(item)}: ${expected}`
    chosen.add(category)
  }
  // An empty list asks for nothing in particular: review everything, as when it is absent.
  return chosen.size === 0 ? [...CATEGORIES] : CATEGORIES.filter((c) => chosen.has(c))
}
