/**
 * What a skill module (or its factory) threw, as the start's message says it. The author's own
 * `new Error('…')` is a message they wrote for this; a TypeError, ReferenceError or SyntaxError
 * is a bug, and the message names where it is. A thrown value that is not an Error is shown.
 */
import { fileURLToPath } from 'node:url'

export function thrownProblem(thrown: unknown, specifier: string): string {
  if (!(thrown instanceof Error)) return shown(thrown)
  if (thrown.constructor === Error) return thrown.message
  const problem = `${thrown.name}: ${thrown.message}`
  const place = placeInCode(thrown.stack)
  if (place !== undefined) return `${problem} (at ${place})`
  // Node gives no place for a syntax error in an imported module; its checker does.
  if (thrown.name === 'SyntaxError') {
    return `${problem} (\`node --check ${specifier}\`, or on the modules it imports, shows where)`
  }
  return problem
}

/** The first frame of `stack` in a module's code (not Node's own), as a path:line:column. */
function placeInCode(stack: string | undefined): string | undefined {
  for (const line of (stack ?? '').split('\n').slice(1)) {
    const frame = /^\s+at (?:.* \()?(.+?)(:\d+:\d+)\)?$/.exec(line)
    if (!frame || frame[1]!.startsWith('node:')) continue
    const [, where, lineAndColumn] = frame
    return (where!.startsWith('file://') ? fileURLToPath(where!) : where!) + lineAndColumn!
  }
  return undefined
}

function shown(value: unknown): string {
  if (typeof value === 'string') return value
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}
