/**
 * JSON with object keys sorted at every level (undefined members left out, no whitespace), so
 * equal values always serialize, and hash, alike: request fingerprints and the audit chain.
 */
export function canonicalJson(value: unknown): string {
  if (typeof value === 'string') return jsonString(value)
  // What JSON.stringify writes for these, without calling it.
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null'
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) {
    let out = '['
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + canonicalJson(value[i])
    return `${out}]`
  }
  const record = value as Record<string, unknown>
  const keys = Object.keys(record)
  // Most objects are built in key order already; sorting allocates even then.
  if (!isSorted(keys)) keys.sort()
  let out = '{'
  for (const key of keys) {
    if (record[key] === undefined) continue
    out += `${out.length === 1 ? '' : ','}${jsonString(key)}:${canonicalJson(record[key])}`
  }
  return `${out}}`
}

/** Whether `keys` are in the order Array.prototype.sort gives them. */
export function isSorted(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (keys[i - 1]! > keys[i]!) return false
  return true
}

/** What JSON.stringify escapes in a string: quotes, backslashes, controls, lone surrogates. */
// eslint-disable-next-line no-control-regex -- the control characters are what JSON escapes
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/

/**
 * JSON.stringify(text), without its cost for the common text that needs no escape (ids,
 * timestamps, names): records and fingerprints are made on every request.
 */
export function jsonString(text: string): string {
  return ESCAPED.test(text) ? JSON.stringify(text) : `"${text}"`
}
