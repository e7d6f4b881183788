/**
 * Spotting a SQL statement built from values instead of bound parameters, on one line. A literal
 * counts as SQL only by statement shape (SELECT…FROM, INSERT INTO, UPDATE…SET, DELETE FROM, or an
 * upper-case WHERE/VALUES fragment), so prose like "select a file" is left alone; it counts as
 * built when its own syntax interpolates (f-string, `${}` in an untagged template, `#{}`, C#
 * `$""`, PHP `"$var"`) or when it is glued to code by `+`, `%`, `.format(`, `Sprintf`.
 * Placeholders (`%s` with a separate argument tuple, `$1`, `?`, `:name`) and tagged templates
 * (sql`…${id}`, Prisma's `$queryRaw`) bind values and are never flagged.
 */
import type { Language } from './languages.js'
import { stringLiterals, withoutLiteralBodies, type Literal } from './literals.js'

const SQL_SHAPES = [
  /\bSELECT\s[\s\S]*?\bFROM\b/,
  /\bselect\s+(?:distinct\s+)?[\w.*()`"]+(?:\s*,\s*[\w.*()`"]+)*\s+from\s+[\w.`"[]/i,
  /\binsert\s+(?:or\s+\w+\s+)?into\s+[\w.`"[]/i,
  // UPDATE … SET: in capitals, or with its first assignment (prose says "update config set by").
  /\bUPDATE\s+[\w.`"[\]]+\s+SET\b/,
  /\bupdate\s+[\w.`"[\]]+\s+set\s+[\w.`"[\]]+\s*=/i,
  /\bdelete\s+from\s+[\w.`"[]/i,
  // Upper-case fragments of a query assembled piece by piece: `" WHERE id = " + id`.
  /\b(?:WHERE|HAVING|ORDER BY|GROUP BY|VALUES)\b/,
  /\b(?:AND|OR)\s+[\w.`"[\]]+\s*(?:=|<|>|!=|LIKE\b|IN\b)/,
]

const PYTHON_F_STRING = /^(?:[rRbBuU]?[fF]|[fF][rRbB])$/
const FORMAT_CALL = /(?:\bSprintf|\bString\.format|\bformat)\s*\(\s*$/
/** Languages whose double-quoted strings interpolate `$name` / `${expr}` by themselves. */
const DOLLAR_STRINGS: ReadonlySet<Language | undefined> = new Set(['php', 'kotlin'])

/**
 * Rails query methods take SQL fragments: `where("name = '#{params[:name]}'")` is the textbook
 * injection, although the fragment alone has no statement shape.
 */
const ACTIVE_RECORD_FRAGMENT =
  /\.(?:where|having|order|group|joins|select|from|pluck|find_by_sql|exists\?)\s*\(?\s*"[^"]*#\{/

export function buildsSql(text: string, language: Language | undefined): boolean {
  if (language === 'ruby' && ACTIVE_RECORD_FRAGMENT.test(text)) return true
  const literals = stringLiterals(text)
  const sql = literals.filter((literal) => SQL_SHAPES.some((shape) => shape.test(literal.body)))
  if (sql.length === 0) return false
  const code = withoutLiteralBodies(text, literals)
  return sql.some(
    (literal) => interpolates(literal, language) || gluedToCode(text, literal, code, language),
  )
}

function interpolates(literal: Literal, language: Language | undefined): boolean {
  const { quote, prefix, body } = literal
  if (quote === '`') return prefix === '' && body.includes('${')
  if (PYTHON_F_STRING.test(prefix)) return /\{[^}]+\}/.test(body)
  if (prefix.includes('$')) return /\{[^}]+\}/.test(body) // C# $"…{id}"
  if (language === 'scala' && /^[sf]$/.test(prefix)) return body.includes('$')
  if (!quote.startsWith('"')) return false
  if (/#\{[^}]+\}/.test(body)) return true // Ruby
  if (language === 'swift' && body.includes('\\(')) return true
  return DOLLAR_STRINGS.has(language) && /\$[A-Za-z_{]/.test(body)
}

function gluedToCode(
  text: string,
  literal: Literal,
  code: string,
  language: Language | undefined,
): boolean {
  const after = text.slice(literal.end).trimStart()
  const before = text.slice(0, literal.start - literal.prefix.length).trimEnd()
  if (/^%\s*[\w([{]/.test(after) || /^\.format\s*\(/.test(after)) return true
  if (FORMAT_CALL.test(before) && /%[sdvqr]/.test(literal.body)) return true
  if (language === 'php' && (after.startsWith('.') || before.endsWith('.'))) {
    return /\$[A-Za-z_]/.test(code)
  }
  // `+` joining the query to something that is not itself a literal: `" WHERE id = " + id`.
  const concatenated = after.startsWith('+') || /\+=?$/.test(before)
  return concatenated && /(?:^|[^+])\+=?\s*[\w$(]|[\w$)\]]\s*\+(?![+=])/.test(code)
}
