/**
 * What a skill module (or its factory) threw, as the start's message says it. The author's own
 * `new Error('…')` is a message they wrote for this; a TypeError, ReferenceError or SyntaxError
 * is a bug, and the message names where it is. A thrown value that is not an Error is shown.
 */
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Where the loader itself is: a frame here is the import call, never the module's bug. */
const LOADER_DIR = dirname(fileURLToPath(import.meta.url))

/** What Node says of `import` or `export` in a file it reads as CommonJS. */
const ESM_AS_COMMONJS = /^(Cannot use import statement outside a module|Unexpected token 'export')/

export function thrownProblem(thrown: unknown, specifier: string): string {
  if (!(thrown instanceof Error)) return shown(thrown)
  if (thrown.constructor === Error) return thrown.message
  const problem = `${thrown.name}: ${thrown.message}`
  if (thrown.name === 'SyntaxError' && ESM_AS_COMMONJS.test(thrown.message)) {
    return `${problem}: Node reads "${specifier}" as CommonJS (a .cjs file, or the package.json nearest to it says "type": "commonjs", as npm init -y writes). Name it .mjs, or set "type": "module" in that package.json; a CommonJS module exports its skill with module.exports`
  }
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
    const path = where!.startsWith('file://') ? fileURLToPath(where!) : where!
    if (dirname(path) === LOADER_DIR) continue
    return path + lineAndColumn!
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
