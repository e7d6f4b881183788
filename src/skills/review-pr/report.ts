/** How findings read to a person: a one-line summary and a short plain-text report. */
import type { DiffFile } from './diff.js'
import type { Finding } from './review.js'
import { SEVERITIES } from './rule.js'

const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`

/**
 * "3 findings in 2 files: 1 critical, 1 high, 1 low", or "No issues found in 2 files", or, when
 * the diff adds nothing (it only removes, deletes or renames), that there was nothing to review.
 */
export function summaryLine(findings: readonly Finding[], files: readonly DiffFile[]): string {
  if (files.every((file) => file.added.length === 0)) {
    return `No added lines to review in ${plural(files.length, 'file')} (removed lines are not reviewed)`
  }
  if (findings.length === 0) return `No issues found in ${plural(files.length, 'file')}`
  const withFindings = new Set(findings.map((finding) => finding.file)).size
  const counts = SEVERITIES.map(
    (severity) => [severity, findings.filter((f) => f.severity === severity).length] as const,
  )
    .filter(([, count]) => count > 0)
    .map(([severity, count]) => `${count} ${severity}`)
  return `${plural(findings.length, 'finding')} in ${plural(withFindings, 'file')}: ${counts.join(', ')}`
}

/** The summary, then one `path:line [severity] issue` line per finding, in the given order. */
export function reportText(summary: string, findings: readonly Finding[]): string {
  const lines = findings.map(
    (finding) => `${finding.file}:${finding.line} [${finding.severity}] ${finding.issue}`,
  )
  return [summary, ...lines].join('\n')
}

/**
 * What the summary adds when hunk headers counted fewer lines than their hunks hold: the extra
 * lines were reviewed, but the diff is not what a tool made, so its line numbers may be off.
 */
export function uncountedNote(files: readonly DiffFile[]): string {
  const miscounted = files.filter((file) => file.uncounted !== undefined).map((file) => file.path)
  if (miscounted.length === 0) return ''
  return ` (the hunk headers of ${miscounted.join(', ')} count fewer lines than they hold: the rest was reviewed too, but line numbers may be off)`
}

/** What the summary adds when the diff was only changed lines: the numbers are not the file's. */
export function headerlessNote(findings: readonly Finding[]): string {
  if (findings.length === 0) return ''
  return ' (the diff has no file headers or @@ hunks: lines are numbered from its first line)'
}
