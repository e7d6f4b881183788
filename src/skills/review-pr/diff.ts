/**
 * A unified diff parser (git, `diff -u`, svn): which files changed and which lines were added, at
 * their line numbers in the NEW file — the numbers a reviewer comments on. Hunk line counts, not
 * line prefixes, decide where a hunk ends, so a removed SQL comment (`--- x`) or an added line
 * starting with `++` is never mistaken for a header. Lines past a hunk's count that are still
 * changed or context lines are read too (`uncounted`): diffs written by hand miscount.
 */

export type FileStatus = 'added' | 'modified' | 'deleted' | 'renamed'

export interface AddedLine {
  /** 1-based line number in the new file. */
  line: number
  /** The line without its leading `+`. */
  text: string
}

export interface DiffFile {
  /** The new path; the old one for a deleted file. */
  path: string
  /** The path before a rename. */
  oldPath?: string
  status: FileStatus
  binary: boolean
  /** How many `@@` hunks it has; zero for renames, mode changes and binary files. */
  hunks: number
  added: AddedLine[]
  /**
   * Lines read past the end its hunk headers announce: hand-written or generated diffs often
   * count wrong, and a line a header left out is still a changed line. Absent for git's own
   * diffs (none).
   */
  uncounted?: number
}

/** Stands in for the path of a diff that is only hunks, with no file headers. */
export const UNNAMED = '(unnamed)'

interface Draft {
  git: boolean
  /** The prefixes of git's paths: `a/` and `b/`, or `c/`, `i/`, `w/`… with diff.mnemonicPrefix. */
  gitPrefixes?: [string, string]
  gitOld?: string
  gitNew?: string
  oldName?: string
  newName?: string
  renamedFrom?: string
  renamedTo?: string
  created: boolean
  deleted: boolean
  headers: boolean
  hunks: number
  binary: boolean
  added: AddedLine[]
  uncounted: number
}

interface Hunk {
  oldLeft: number
  newLeft: number
  next: number
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/
const DEV_NULL = '/dev/null'

const draft = (init: Partial<Draft> = {}): Draft => ({
  git: false,
  created: false,
  deleted: false,
  headers: false,
  hunks: 0,
  binary: false,
  added: [],
  uncounted: 0,
  ...init,
})

export function parseDiff(text: string): DiffFile[] {
  const lines = text.split(/\r?\n/)
  const drafts: Draft[] = []
  let current: Draft | undefined
  let hunk: Hunk | undefined
  const start = (next: Draft): Draft => {
    drafts.push(next)
    return next
  }

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? ''
    if (current && hunk) {
      const counted = (hunk.oldLeft > 0 || hunk.newLeft > 0) && consumeHunkLine(current, hunk, line)
      if (counted || beyondCount(current, hunk, line, lines[i + 1])) continue
    }
    hunk = undefined
    if (line.startsWith('\\')) continue // "\ No newline at end of file"

    if (line.startsWith('diff --git ')) {
      const header = gitHeaderPaths(line.slice('diff --git '.length))
      current = start(draft({ git: true, ...header }))
    } else if (line.startsWith('Index: ')) {
      const path = line.slice('Index: '.length).trim()
      current = start(draft({ gitOld: path, gitNew: path }))
    } else if (line.startsWith('--- ') && lines[i + 1]?.startsWith('+++ ')) {
      // The headers of the file that `diff --git` or `Index:` just opened, or a new `diff -u` file.
      if (!current || current.headers || current.hunks > 0) current = start(draft())
      current.headers = true
      const [oldPrefix, newPrefix] = current.gitPrefixes ?? (current.git ? ['a/', 'b/'] : [])
      current.oldName = headerPath(line.slice(4), oldPrefix)
      current.newName = headerPath(lines[i + 1]!.slice(4), newPrefix)
      i += 1
    } else if (line.startsWith('@@ ')) {
      const match = HUNK_HEADER.exec(line)
      if (!match) continue
      current ??= start(draft({ gitOld: UNNAMED, gitNew: UNNAMED }))
      current.hunks += 1
      hunk = {
        oldLeft: match[2] === undefined ? 1 : Number(match[2]),
        newLeft: match[4] === undefined ? 1 : Number(match[4]),
        next: Number(match[3]),
      }
    } else if (current) {
      extendedHeader(current, line)
    }
  }
  return drafts.map(finish)
}

/** One line inside a hunk; false when the hunk ended early (a malformed or truncated diff). */
function consumeHunkLine(file: Draft, hunk: Hunk, line: string): boolean {
  const marker = line[0]
  if (marker === '\\') return true
  if (marker === '+' && hunk.newLeft > 0) {
    file.added.push({ line: hunk.next, text: line.slice(1) })
    hunk.next += 1
    hunk.newLeft -= 1
    return true
  }
  if (marker === '-' && hunk.oldLeft > 0) {
    hunk.oldLeft -= 1
    return true
  }
  // Some editors and chat clients strip the single space of an empty context line.
  if ((marker === ' ' || line === '') && hunk.oldLeft > 0 && hunk.newLeft > 0) {
    hunk.oldLeft -= 1
    hunk.newLeft -= 1
    hunk.next += 1
    return true
  }
  return false
}

/**
 * A changed or context line that its hunk's header did not count (it counted fewer, or fewer of
 * that kind): read as part of the hunk, and counted as such, unless it is the next file's
 * `---`/`+++` headers.
 */
function beyondCount(file: Draft, hunk: Hunk, line: string, next: string | undefined): boolean {
  const marker = line[0]
  if (marker === '-' && line.startsWith('--- ') && next?.startsWith('+++ ')) return false
  // `git format-patch` signs off its patch with "-- " and git's version.
  if (line === '-- ') return false
  if (marker === '+') file.added.push({ line: hunk.next, text: line.slice(1) })
  else if (marker !== '-' && marker !== ' ') return false
  if (marker !== '-') hunk.next += 1
  file.uncounted += 1
  return true
}

function extendedHeader(file: Draft, line: string): void {
  if (line.startsWith('new file mode')) file.created = true
  else if (line.startsWith('deleted file mode')) file.deleted = true
  else if (line.startsWith('rename from ')) file.renamedFrom = unquote(line.slice(12))
  else if (line.startsWith('rename to ')) file.renamedTo = unquote(line.slice(10))
  else if (line.startsWith('copy to ')) {
    file.renamedTo = unquote(line.slice(8))
    file.created = true
  } else if (line.startsWith('Binary files ') || line === 'GIT binary patch') file.binary = true
}

function finish(file: Draft): DiffFile {
  const fromNothing = file.created || file.oldName === DEV_NULL
  const toNothing = file.deleted || file.newName === DEV_NULL
  const oldPath = real(file.oldName) ?? file.renamedFrom ?? file.gitOld
  const newPath = real(file.newName) ?? file.renamedTo ?? file.gitNew
  const path = (toNothing ? oldPath : newPath) ?? oldPath ?? UNNAMED
  const base = {
    binary: file.binary,
    hunks: file.hunks,
    added: file.added,
    ...(file.uncounted > 0 && { uncounted: file.uncounted }),
  }
  if (toNothing) return { path, status: 'deleted', ...base }
  if (fromNothing) return { path, status: 'added', ...base }
  // Outside git, old and new names differ routinely (`x.py.orig`, `old/x.py`): not a rename.
  const renamed = file.renamedFrom !== undefined || (file.git && oldPath !== path)
  if (renamed && oldPath !== undefined) return { path, oldPath, status: 'renamed', ...base }
  return { path, status: 'modified', ...base }
}

const real = (name: string | undefined): string | undefined =>
  name === DEV_NULL ? undefined : name

/** `a/src/x.py\t2024-01-01 10:00` → `src/x.py`; the tab starts a timestamp or svn revision. */
function headerPath(raw: string, gitPrefix: string | undefined): string {
  const name = unquote(raw.split('\t')[0]!.trimEnd())
  if (name === DEV_NULL) return name
  if (gitPrefix) return name.startsWith(gitPrefix) ? name.slice(gitPrefix.length) : name
  // Plain diffs pasted from git tools still carry the a/ and b/ prefixes.
  return /^[ab]\//.test(name) ? name.slice(2) : name
}

/**
 * `a/x b/x`; unquoted paths may contain spaces, so equal halves are preferred. The prefixes are
 * git's `a/` and `b/`, or the one-letter ones of diff.mnemonicPrefix (`c/`, `i/`, `w/`, `o/`).
 */
function gitHeaderPaths(rest: string): Pick<Draft, 'gitPrefixes' | 'gitOld' | 'gitNew'> {
  const found = (left: string, right: string, old: string, now: string) => ({
    gitPrefixes: [`${left}/`, `${right}/`] as [string, string],
    gitOld: old,
    gitNew: now,
  })
  const quoted = /^"([a-z])\/((?:[^"\\]|\\.)*)" "([a-z])\/((?:[^"\\]|\\.)*)"$/.exec(rest)
  if (quoted) {
    const [, left = '', old = '', right = '', now = ''] = quoted
    return found(left, right, unquote(`"${old}"`), unquote(`"${now}"`))
  }
  const left = /^([a-z])\//.exec(rest)?.[1]
  if (left === undefined) return {}
  // The same path on both sides (no rename): the halves meet in the middle.
  const half = (rest.length - 5) / 2
  const right = Number.isInteger(half) ? /^ ([a-z])\/$/.exec(rest.slice(half + 2, half + 5)) : null
  if (right) {
    const [old, now] = [rest.slice(2, half + 2), rest.slice(half + 5)]
    if (old === now) return found(left, right[1]!, old, now)
  }
  // A rename: git's usual prefixes, or mnemonic ones around paths without spaces.
  const usual = /^a\/(.+?) b\/(.+)$/.exec(rest)
  if (usual) return found('a', 'b', usual[1]!, usual[2]!)
  const mnemonic = /^([a-z])\/(\S+) ([a-z])\/(\S+)$/.exec(rest)
  return mnemonic ? found(mnemonic[1]!, mnemonic[3]!, mnemonic[2]!, mnemonic[4]!) : {}
}

const ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', '"': '"', '\\': '\\' }

/** Git quotes paths with unusual characters C-style: `"a/caf\303\251.py"`. */
function unquote(name: string): string {
  if (!(name.length >= 2 && name.startsWith('"') && name.endsWith('"'))) return name
  const bytes: number[] = []
  const body = name.slice(1, -1)
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!
    if (char !== '\\') {
      bytes.push(...Buffer.from(char))
      continue
    }
    const octal = /^[0-7]{3}/.exec(body.slice(i + 1))
    if (octal) {
      bytes.push(parseInt(octal[0], 8))
      i += 3
      continue
    }
    const escaped = body[i + 1] ?? ''
    bytes.push(...Buffer.from(ESCAPES[escaped] ?? escaped))
    i += 1
  }
  return Buffer.from(bytes).toString('utf8')
}
