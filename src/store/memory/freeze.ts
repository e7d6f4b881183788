/**
 * The memory store hands out the objects it holds, deep-frozen, instead of copying them on
 * every read: a caller cannot change what is stored (a write throws in strict mode), and a task
 * changed by applyChange shares its untouched, already-frozen parts with the previous version.
 */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value
  Object.freeze(value)
  // Indexed loops over own values: this runs on every write, and `for…in` costs about twice as
  // much on the many object shapes a task holds.
  const children: unknown[] = Array.isArray(value) ? value : Object.values(value)
  for (let i = 0; i < children.length; i++) deepFreeze(children[i])
  return value
}
