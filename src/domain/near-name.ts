/** The known name a mistyped one most likely meant: a case, a plural, a typo. */

/** The name closest to `name` within `maxEdits` (letter case ignored), if there is one. */
export function nearestName(
  name: string,
  names: readonly string[],
  maxEdits: number,
): string | undefined {
  let best: { name: string; edits: number } | undefined
  for (const candidate of names) {
    const edits = editDistance(name.toLowerCase(), candidate.toLowerCase())
    if (edits <= maxEdits && (best === undefined || edits < best.edits)) {
      best = { name: candidate, edits }
    }
  }
  return best?.name
}

/** Levenshtein distance: the fewest insertions, deletions and substitutions from a to b. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution))
    }
    previous = current
  }
  return previous[b.length]!
}
