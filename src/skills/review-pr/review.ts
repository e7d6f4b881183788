/** The review itself, pure: the rules run over a file's added lines, findings in report order. */
import type { DiffFile } from './diff.js'
import type { Language } from './languages.js'
import { isComment, SEVERITIES, type Category, type Rule, type Severity } from './rule.js'
import { RULES } from './rules.js'

export interface Finding {
  severity: Severity
  category: Category
  file: string
  /** Line number in the new file. */
  line: number
  issue: string
  recommendation: string
  /** The id of the rule that found it. */
  rule: string
}

/**
 * Only this much of a line is examined: minified bundles have lines of megabytes, and line-based
 * patterns say nothing useful about them anyway.
 */
const MAX_LINE = 2000

export function rulesFor(language: Language | undefined, focus: readonly Category[]): Rule[] {
  return RULES.filter(
    (rule) =>
      focus.includes(rule.category) &&
      (rule.languages === 'all' || (language !== undefined && rule.languages.includes(language))),
  )
}

export function reviewFile(
  file: DiffFile,
  language: Language | undefined,
  focus: readonly Category[],
): Finding[] {
  if (file.status === 'deleted') return []
  const rules = rulesFor(language, focus)
  const findings: Finding[] = []
  for (const added of file.added) {
    const text = added.text.slice(0, MAX_LINE)
    const comment = isComment(text, language)
    const hits = rules.filter(
      (rule) => (rule.includeComments === true || !comment) && rule.matches(text, language),
    )
    const superseded = new Set(hits.flatMap((rule) => rule.supersedes ?? []))
    for (const rule of hits) {
      if (superseded.has(rule.id)) continue
      findings.push({
        severity: rule.severity,
        category: rule.category,
        file: file.path,
        line: added.line,
        issue: rule.issue,
        recommendation: rule.recommendation,
        rule: rule.id,
      })
    }
  }
  return findings
}

/** Most severe first, then by file and line, so the report reads top-down. */
export function sortFindings(findings: readonly Finding[]): Finding[] {
  const rank = (finding: Finding) => SEVERITIES.indexOf(finding.severity)
  return [...findings].sort(
    (a, b) =>
      rank(a) - rank(b) || compare(a.file, b.file) || a.line - b.line || compare(a.rule, b.rule),
  )
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)
