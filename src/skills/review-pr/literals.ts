/**
 * The string literals on one line of code, with what sits right before them (`f`, `$`, a template
 * tag) — enough to tell a query built by interpolation from a parameterized one without a parser
 * per language.
 */

export interface Literal {
  /** `"`, `'`, a backtick, or a tripled quote. */
  quote: string
  /** Identifier characters glued to the opening quote: `f`, `rb`, `$`, `$@`, `sql`. */
  prefix: string
  body: string
  /** Index of the opening quote. */
  start: number
  /** Index just past the closing quote (the line's end when unterminated). */
  end: number
}

const QUOTES = new Set(['"', "'", '`'])
const PREFIX_CHAR = /[\w$@]/

export function stringLiterals(line: string): Literal[] {
  const literals: Literal[] = []
  let i = 0
  while (i < line.length) {
    const char = line[i]!
    if (!QUOTES.has(char)) {
      i += 1
      continue
    }
    const quote = char !== '`' && line.startsWith(char.repeat(3), i) ? char.repeat(3) : char
    let prefixStart = i
    while (prefixStart > 0 && PREFIX_CHAR.test(line[prefixStart - 1]!)) prefixStart -= 1
    const bodyStart = i + quote.length
    const close = closingQuote(line, bodyStart, quote)
    const end = close === -1 ? line.length : close + quote.length
    literals.push({
      quote,
      prefix: line.slice(prefixStart, i),
      body: line.slice(bodyStart, close === -1 ? line.length : close),
      start: i,
      end,
    })
    i = end
  }
  return literals
}

function closingQuote(line: string, from: number, quote: string): number {
  for (let i = from; i < line.length; i++) {
    if (line[i] === '\\') i += 1
    else if (line.startsWith(quote, i)) return i
  }
  return -1
}

/** The line with every literal's body emptied: what is left is code. */
export function withoutLiteralBodies(line: string, literals: readonly Literal[]): string {
  let code = ''
  let at = 0
  for (const literal of literals) {
    code += line.slice(at, literal.start) + literal.quote + literal.quote
    at = literal.end
  }
  return code + line.slice(at)
}
