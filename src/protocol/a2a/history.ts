/**
 * A2A's `historyLength` (0.3 and 1.0): unset, the whole history; 0, none; n, the n most recent
 * messages. (`slice(-0)` is the whole array: 0 needs its own case.)
 */
export function recentHistory<T>(history: readonly T[], historyLength?: number): readonly T[] {
  if (historyLength === undefined) return history
  return historyLength === 0 ? [] : history.slice(-historyLength)
}
