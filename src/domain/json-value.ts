/**
 * Whether a value a skill hands over can travel as JSON as it is. JSON.stringify throws on a
 * BigInt or a cycle, and quietly changes other values (a Map becomes `{}`, NaN `null`, a
 * function vanishes): a skill in JavaScript may pass any of them, and the task would be stored
 * with what no reader can serialize, or with what the skill did not send. Every artifact and
 * outcome is walked, so the walk allocates nothing unless it finds a problem.
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
  return problemIn(value, [])
}

/** `value`'s first problem, its path built on the way back up; `enclosing`: its containers. */
function problemIn(value: unknown, enclosing: object[]): JsonProblem | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
    case 'undefined':
      // An undefined member is left out, as JSON.stringify does; nothing to report.
      return undefined
    case 'number':
      return Number.isFinite(value)
        ? undefined
        : at(`is ${String(value)}, which JSON cannot carry (it would arrive as null)`)
    case 'bigint':
      return at(
        'is a BigInt, which JSON cannot carry; convert it (String(value), or Number(value) when it fits)',
      )
    case 'function':
    case 'symbol':
      return at(`is a ${typeof value}, which JSON cannot carry`)
  }
  if (value === null) return undefined
  const object = value as object
  // A Date (or any value with toJSON) says itself how it is written.
  if (typeof (object as { toJSON?: unknown }).toJSON === 'function') return undefined
  if (object instanceof Map) {
    return at('is a Map, which JSON writes as {}; convert it (Object.fromEntries(value))')
  }
  if (object instanceof Set) return at('is a Set, which JSON writes as {}; convert it ([...value])')
  if (enclosing.includes(object)) {
    return at('refers back to an object that contains it (a cycle), which JSON cannot carry')
  }
  if (enclosing.length >= MAX_DEPTH) return at(`is nested deeper than ${MAX_DEPTH} levels`)
  enclosing.push(object)
  let problem: JsonProblem | undefined
  if (Array.isArray(object)) {
    for (let i = 0; i < object.length && !problem; i++) {
      problem = problemIn(object[i], enclosing)
      problem?.path.unshift(i)
    }
  } else {
    for (const key of Object.keys(object)) {
      problem = problemIn((object as Record<string, unknown>)[key], enclosing)
      if (problem) {
        problem.path.unshift(key)
        break
      }
    }
  }
  enclosing.pop()
  return problem
}

const at = (message: string): JsonProblem => ({ path: [], message })

/** A problem as the skill's own call reports it: `parts.0.data.n: is a BigInt, …`. */
export const describeJsonProblem = ({ path, message }: JsonProblem): string =>
  path.length === 0 ? message : `${path.join('.')}: ${message}`
