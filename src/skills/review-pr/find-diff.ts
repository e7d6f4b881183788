/**
 * Finding a unified diff inside what a person sent: often prose first ("Please review this:"),
 * sometimes a fenced code block, sometimes nothing but the diff.
 */
import { parseDiff, type DiffFile } from './diff.js'

export interface FoundDiff {
  /** The text from the diff's first line on. */
  diff: string
  files: DiffFile[]
  /** What came before the diff. */
  prose: string
  /** Only changed lines, with no headers at all: line numbers count from its first line. */
  headerless?: true
}

function startsDiff(lines: readonly string[], i: number): boolean {
  const line = lines[i] ?? ''
  return (
    line.startsWith('diff --git ') ||
    line.startsWith('Index: ') ||
    (line.startsWith('--- ') && (lines[i + 1]?.startsWith('+++ ') ?? false))
  )
}

/**
 * The diff in a text, from the first line that starts one (`diff --git`, `Index:`, a `---`/`+++`
 * pair) and really is one: git's own header suffices, other headers need a hunk of their own, so
 * a prose line such as "Index: notes below" is skipped.
 */
export function findDiff(text: string): FoundDiff | undefined {
  const lines = text.split(/\r?\n/)
  for (let i = 0; i < lines.length; i++) {
    if (!startsDiff(lines, i)) continue
    const diff = lines.slice(i).join('\n')
    const files = parseDiff(diff)
    if (lines[i]!.startsWith('diff --git ') || (files[0]?.hunks ?? 0) > 0) {
      return { diff, files, prose: lines.slice(0, i).join('\n') }
    }
  }
  return undefined
}

/**
 * A diff given as such (the data part's `diff` field) may also be bare hunks with no headers, or
 * only changed lines (`+`/`-`, maybe ` ` context): read as one hunk from line 1 of an unnamed file.
 */
export function diffFromField(value: string): FoundDiff | undefined {
  const found = findDiff(value)
  if (found) return found
  const files = parseDiff(value)
  if (files.some((file) => file.hunks > 0)) return { diff: value, files, prose: '' }
  const hunk = changedLinesHunk(value)
  return hunk === undefined ? undefined : { ...hunk, prose: '', headerless: true }
}

/** Lines that all start with `+`, `-` or a space (at least one changed), none a diff header. */
function changedLinesHunk(value: string): Pick<FoundDiff, 'diff' | 'files'> | undefined {
  const rows = value.replace(/(?:\r?\n)+$/, '').split(/\r?\n/)
  const changed = rows.some((row) => row.startsWith('+') || row.startsWith('-'))
  const bare = rows.every((row) => /^(?:[-+ ]|$)/.test(row) && !/^(?:\+\+\+|---) /.test(row))
  if (!changed || !bare) return undefined
  const count = (marker: string) =>
    rows.filter((row) => row === '' || row.startsWith(' ') || row.startsWith(marker)).length
  const diff = `@@ -1,${count('-')} +1,${count('+')} @@\n${rows.join('\n')}`
  return { diff, files: parseDiff(diff) }
}
