/** Building realistic diffs and running the pure review on them, for the review-pr tests. */
import { parseDiff } from '../../../src/skills/review-pr/diff.js'
import { fileLanguage, type Language } from '../../../src/skills/review-pr/languages.js'
import { reviewFile, sortFindings, type Finding } from '../../../src/skills/review-pr/review.js'
import { CATEGORIES, type Category } from '../../../src/skills/review-pr/rule.js'

export const lines = (...rows: string[]): string => rows.join('\n')

/** The git diff that adds `path` with these lines, numbered 1..n in the new file. */
export function newFile(path: string, body: readonly string[]): string {
  return lines(
    `diff --git a/${path} b/${path}`,
    'new file mode 100644',
    'index 0000000..3f2a9c1',
    '--- /dev/null',
    `+++ b/${path}`,
    `@@ -0,0 +1,${body.length} @@`,
    ...body.map((line) => `+${line}`),
  )
}

/**
 * A hand-written diff whose hunk header counts two lines where the hunk holds six: `eval(b)`,
 * the context line after it and the `os.system` line are past the count.
 */
export const MISCOUNTED_HUNK = lines(
  '--- a/x.py',
  '+++ b/x.py',
  '@@ -1,2 +1,2 @@',
  ' import os',
  '+eval(a)',
  '+eval(b)',
  ' y = 1',
  '-z = 2',
  '+os.system("rm " + p)',
)

export interface ReviewOptions {
  language?: Language
  focus?: readonly Category[]
}

/** Parse, place each file's language, review and sort: what the skill does minus the I/O. */
export function review(diff: string, options: ReviewOptions = {}): Finding[] {
  const findings = parseDiff(diff).flatMap((file) =>
    reviewFile(file, fileLanguage(file, options.language), options.focus ?? CATEGORIES),
  )
  return sortFindings(findings)
}

/** A finding as one comparable string: `path:line severity rule`. */
export const brief = (finding: Finding): string =>
  `${finding.file}:${finding.line} ${finding.severity} ${finding.rule}`

export const briefs = (diff: string, options?: ReviewOptions): string[] =>
  review(diff, options).map(brief)
