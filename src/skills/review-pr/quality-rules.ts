/**
 * Style, bug and performance rules: things a careful reviewer would comment on. Patterns that are
 * legitimate as often as not (`fmt.Println` in Go, `==` in JavaScript) are left out on purpose.
 */
import { stringLiterals, withoutLiteralBodies } from './literals.js'
import { anyOf, perLanguage, type Rule } from './rule.js'

const JS_DEBUG_OUTPUT = [/\bconsole\.(?:log|debug|trace)\s*\(/]
const JS_DEBUGGER = [/^\s*debugger\s*;?\s*(?:\/\/.*)?$/]
const BRACE_CATCH = [/\bcatch\s*(?:\([^)]*\))?\s*\{\s*\}/]
const JS_ASYNC_FOREACH = [/\.forEach\s*\(\s*async\b/]
const JS_SYNC_FS = [
  /(?:\bfs\.|(?<![\w$.]))(?:readFileSync|writeFileSync|appendFileSync|readdirSync)\s*\(/,
]
const JS_DEEP_CLONE = [/\bJSON\.parse\s*\(\s*JSON\.stringify\s*\(/]

/**
 * A DELETE or UPDATE that starts and ends (`;`) on the line with no WHERE (or LIMIT) before its
 * end: it changes every row. A statement that goes on to the next line may have its WHERE there.
 */
const WRITE_STATEMENT =
  /^\s*(?:DELETE\s+FROM\s|UPDATE\s+(?:ONLY\s+)?[\w.`"[\]]+(?:\s+(?:AS\s+)?\w+)?\s+SET\s)([^;]*);/i
const writesEveryRow = (text: string): boolean => {
  // Emptied strings: a `;` or a WHERE inside `'…'` ends nothing.
  const statement = WRITE_STATEMENT.exec(withoutLiteralBodies(text, stringLiterals(text)))
  return statement !== null && !/\b(?:WHERE|LIMIT)\b/i.test(statement[1] ?? '')
}

export const qualityRules: readonly Rule[] = [
  {
    id: 'debug-output',
    category: 'style',
    severity: 'low',
    ...perLanguage({
      javascript: JS_DEBUG_OUTPUT,
      typescript: JS_DEBUG_OUTPUT,
      python: [/^\s*print\s*\(/],
      java: [/\bSystem\.(?:out|err)\.print(?:ln|f)?\s*\(/, /\.printStackTrace\s*\(\s*\)/],
      php: [/\bvar_dump\s*\(/],
    }),
    issue: 'Leftover debug output',
    recommendation: 'Remove it, or use the project logger at an appropriate level',
  },
  {
    id: 'todo-comment',
    category: 'style',
    severity: 'low',
    languages: 'all',
    includeComments: true,
    matches: (text) => /(?:#|\/\/|\/\*|^\s*\*|--|<!--).*\b(?:TODO|FIXME|HACK|XXX)\b/.test(text),
    issue: 'TODO/FIXME left in new code',
    recommendation: 'Finish the work before merging, or track it in an issue and reference it',
  },
  {
    id: 'debugger-statement',
    category: 'bugs',
    severity: 'medium',
    ...perLanguage({
      javascript: JS_DEBUGGER,
      typescript: JS_DEBUGGER,
      python: [/\b(?:i?pdb|pudb)\.set_trace\s*\(/, /(?<![\w.])breakpoint\s*\(\s*\)/],
      ruby: [/\bbinding\.(?:pry|irb)\b/, /^\s*byebug\b/],
    }),
    issue: 'Debugger breakpoint left in the code: it halts the program when reached',
    recommendation: 'Remove the breakpoint before merging',
  },
  {
    id: 'bare-except',
    category: 'bugs',
    severity: 'medium',
    languages: ['python'],
    matches: (text) => /^\s*except\s*:/.test(text),
    issue: 'Bare except: also catches KeyboardInterrupt and SystemExit and hides real errors',
    recommendation: 'Catch the specific exceptions expected here (at most `except Exception:`)',
  },
  {
    id: 'empty-catch',
    category: 'bugs',
    severity: 'medium',
    ...perLanguage({
      javascript: BRACE_CATCH,
      typescript: BRACE_CATCH,
      java: BRACE_CATCH,
      csharp: BRACE_CATCH,
      kotlin: BRACE_CATCH,
      scala: BRACE_CATCH,
      swift: BRACE_CATCH,
      php: BRACE_CATCH,
      cpp: BRACE_CATCH,
      python: [/^\s*except\b[^:]*:\s*pass\s*(?:#.*)?$/],
      ruby: [/\brescue\s+nil\b/],
      go: [/\bif\s+err\s*!=\s*nil\s*\{\s*\}/],
    }),
    issue: 'Error silently swallowed',
    recommendation: 'Handle the error, log it with context, or let it propagate',
  },
  {
    id: 'missing-where',
    category: 'bugs',
    severity: 'medium',
    languages: ['sql'],
    matches: writesEveryRow,
    issue: 'DELETE/UPDATE without a WHERE clause changes every row of the table',
    recommendation:
      'Add the WHERE clause that selects the rows meant; if every row is meant, say so ' +
      '(TRUNCATE, or WHERE true with a comment)',
  },
  {
    id: 'none-comparison',
    category: 'bugs',
    severity: 'low',
    languages: ['python'],
    matches: (text) => /[!=]=\s*None\b|\bNone\s*[!=]=/.test(text),
    issue: 'Comparison to None with ==/!=, which custom __eq__ methods can subvert',
    recommendation: 'Use `is None` / `is not None`',
  },
  {
    id: 'mutable-default-argument',
    category: 'bugs',
    severity: 'medium',
    languages: ['python'],
    matches: (text) =>
      /\bdef\s+\w+\s*\(.*=\s*(?:\[\s*\]|\{\s*\}|(?:list|dict|set)\(\s*\))\s*[,)]/.test(text),
    issue: 'Mutable default argument: the same list/dict is shared by every call',
    recommendation: 'Default to None and create the list/dict inside the function',
  },
  {
    id: 'async-foreach',
    category: 'bugs',
    severity: 'medium',
    ...perLanguage({ javascript: JS_ASYNC_FOREACH, typescript: JS_ASYNC_FOREACH }),
    issue: 'async callback passed to forEach: its promises are neither awaited nor caught',
    recommendation:
      'Use `for (const x of xs) await ...`, or `await Promise.all(xs.map(async ...))`',
  },
  {
    id: 'select-star',
    category: 'performance',
    severity: 'low',
    languages: 'all',
    matches: anyOf(/\bSELECT\s+\*\s+FROM\b/i),
    issue: 'SELECT * fetches every column, including ones the code never uses',
    recommendation:
      'Name the columns the code needs; that also keeps the query stable when columns are added',
  },
  {
    id: 'json-deep-clone',
    category: 'performance',
    severity: 'low',
    ...perLanguage({ javascript: JS_DEEP_CLONE, typescript: JS_DEEP_CLONE }),
    issue:
      'Deep copy through JSON.parse(JSON.stringify(...)): slow, and drops Dates, Maps, undefined',
    recommendation: 'Use structuredClone(value)',
  },
  {
    id: 'sync-fs-call',
    category: 'performance',
    severity: 'low',
    ...perLanguage({ javascript: JS_SYNC_FS, typescript: JS_SYNC_FS }),
    issue: 'Synchronous file system call blocks the event loop',
    recommendation: 'Use the fs/promises API when this can run while serving requests',
  },
  {
    id: 'dataframe-iterrows',
    category: 'performance',
    severity: 'low',
    languages: ['python'],
    matches: (text) => /\.iterrows\s*\(\s*\)/.test(text),
    issue: 'Row-by-row iteration over a DataFrame with iterrows() is very slow',
    recommendation: 'Use vectorized column operations, or itertuples() if a loop is unavoidable',
  },
]
