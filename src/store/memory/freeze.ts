/**
 * The memory store hands out the objects it holds, deep-frozen, instead of copying them on
 * every read: a caller cannot change what is stored (a write throws in strict mode), and a task
 * changed by applyChange shares its untouched, already-frozen parts with the previous version.
 */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value
  Object.freeze(value)
  // `for…in` reads a plain object's keys from its shape's cache, where Object.values would
  // allocate an array per object: this runs on every write, for every new object of a task.
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) deepFreeze(value[i])
  } else {
    for (const key in value) if (Object.hasOwn(value, key)) deepFreeze(value[key])
  }
  return value
}
