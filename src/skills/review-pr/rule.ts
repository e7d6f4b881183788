/** What a review rule is, and the small pieces the rule tables are built from. */
import type { Language } from './languages.js'
import { stringLiterals, withoutLiteralBodies } from './literals.js'

export const CATEGORIES = ['security', 'style', 'bugs', 'performance'] as const
export type Category = (typeof CATEGORIES)[number]

/** Most severe first: the order findings are reported in. */
export const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const
export type Severity = (typeof SEVERITIES)[number]

export interface Rule {
  id: string
  category: Category
  severity: Severity
  /** `'all'` also covers files of no known language (config files, unnamed diffs). */
  languages: readonly Language[] | 'all'
  /** Look at comment lines too: leaked keys and TODOs live there; code patterns do not. */
  includeComments?: boolean
  /** Rules whose finding on the same line this one makes redundant. */
  supersedes?: readonly string[]
  /** Tests one added line (without its `+`). */
  matches(text: string, language: Language | undefined): boolean
  issue: string
  recommendation: string
}

/** A matcher that fires when any of the patterns does. */
export const anyOf =
  (...patterns: RegExp[]) =>
  (text: string): boolean =>
    patterns.some((pattern) => pattern.test(text))

/** The `languages` and `matches` of a rule whose patterns differ per language. */
export function perLanguage(
  table: Partial<Record<Language, RegExp[]>>,
): Pick<Rule, 'languages' | 'matches'> {
  return {
    languages: Object.keys(table) as Language[],
    matches: (text, language) =>
      language !== undefined && (table[language] ?? []).some((pattern) => pattern.test(text)),
  }
}

const HASH_COMMENTS: ReadonlySet<Language> = new Set(['python', 'ruby', 'shell'])

/**
 * Whether a whole line is a comment. Language-aware because `#` starts a comment in Python but a
 * private field in JavaScript; for files of no known language (YAML, Dockerfiles) `#` and `//` do.
 */
export function isComment(text: string, language: Language | undefined): boolean {
  const line = text.trim()
  if (language === undefined) return line.startsWith('#') || line.startsWith('//')
  if (HASH_COMMENTS.has(language)) return line.startsWith('#')
  if (language === 'sql') return line.startsWith('--') || line.startsWith('/*')
  if (language === 'php' && line.startsWith('#')) return true
  return line.startsWith('//') || line.startsWith('/*') || /^\*(?:\s|\/|$)/.test(line)
}

/** Where a comment that ends a line of code starts, per language. */
function trailingComment(language: Language): RegExp {
  if (HASH_COMMENTS.has(language)) return /#/
  if (language === 'php') return /#|\/\//
  if (language === 'sql') return /--/
  return /\/\//
}

/**
 * The code on a line: string bodies emptied and a trailing comment cut. For rules about calls,
 * which a string or a comment that names them (`"use literal_eval, not eval(x)"`) does not make.
 */
export function codeOf(text: string, language: Language | undefined): string {
  const code = withoutLiteralBodies(text, stringLiterals(text))
  if (language === undefined) return code
  const comment = trailingComment(language).exec(code)
  return comment === null ? code : code.slice(0, comment.index)
}

/**
 * A rule part that tests only the code of a line (see `codeOf`), except in languages whose
 * strings are the code (`wholeLine`): the shell's `eval "$1"` runs its string.
 */
export function inCode(
  part: Pick<Rule, 'languages' | 'matches'>,
  wholeLine: readonly Language[] = [],
): Pick<Rule, 'languages' | 'matches'> {
  return {
    languages: part.languages,
    matches: (text, language) =>
      part.matches(
        language !== undefined && wholeLine.includes(language) ? text : codeOf(text, language),
        language,
      ),
  }
}
