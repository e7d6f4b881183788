/**
 * Whether a value a skill hands over can travel as JSON as it is. JSON.stringify throws on a
 * BigInt or a cycle, and quietly changes other values (a Map becomes `{}`, NaN `null`, a
 * function vanishes): a skill in JavaScript may pass any of them, and the task would be stored
 * with what no reader can serialize, or with what the skill did not send.
 */

/** Deeper than this is refused rather than walked (a skill's output, not an attack surface). */
const MAX_DEPTH = 512

export interface JsonProblem {
  /** Where, from the value given (`['parts', 0, 'data', 'n']`). */
  path: (string | number)[]
  /** What is wrong there and what to do, e.g. "is a BigInt, which JSON cannot carry; …". */
  message: string
}

/** The first place in `value` that JSON cannot carry as it is; undefined when there is none. */
export function jsonProblem(value: unknown): JsonProblem | undefined {
  const path: (string | number)[] = []
  const enclosing = new Set<object>()

  const visit = (at: unknown): string | undefined => {
    switch (typeof at) {
      case 'string':
      case 'boolean':
      case 'undefined':
        // An undefined member is left out, as JSON.stringify does; nothing to report.
        return undefined
      case 'number':
        return Number.isFinite(at)
          ? undefined
          : `is ${String(at)}, which JSON cannot carry (it would arrive as null)`
      case 'bigint':
        return 'is a BigInt, which JSON cannot carry; convert it (String(value), or Number(value) when it fits)'
      case 'function':
      case 'symbol':
        return `is a ${typeof at}, which JSON cannot carry`
    }
    if (at === null) return undefined
    const object = at as object
    // A Date (or any value with toJSON) says itself how it is written.
    if (typeof (object as { toJSON?: unknown }).toJSON === 'function') return undefined
    if (object instanceof Map || object instanceof Set) {
      return `is a ${object instanceof Map ? 'Map' : 'Set'}, which JSON writes as {}; convert it (${object instanceof Map ? 'Object.fromEntries(value)' : '[...value]'})`
    }
    if (enclosing.has(object)) {
      return 'refers back to an object that contains it (a cycle), which JSON cannot carry'
    }
    if (enclosing.size >= MAX_DEPTH) return `is nested deeper than ${MAX_DEPTH} levels`
    enclosing.add(object)
    const entries: [string | number, unknown][] = Array.isArray(object)
      ? object.map((item, index) => [index, item])
      : Object.entries(object)
    for (const [key, item] of entries) {
      path.push(key)
      const problem = visit(item)
      if (problem !== undefined) return problem
      path.pop()
    }
    enclosing.delete(object)
    return undefined
  }

  const message = visit(value)
  return message === undefined ? undefined : { path, message }
}
