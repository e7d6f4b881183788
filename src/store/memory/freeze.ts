/**
 * The memory store hands out the objects it holds, deep-frozen, instead of copying them on
 * every read: a caller cannot change what is stored (a write throws in strict mode), and a task
 * changed by applyChange shares its untouched, already-frozen parts with the previous version.
 */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value
  Object.freeze(value)
  // for…in rather than Object.keys: this runs on every write, and allocates nothing.
  for (const key in value) deepFreeze(value[key])
  return value
}
