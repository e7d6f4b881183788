/** A stable hash of a request, so that a retry can be told from a different request. */
import { hash } from 'node:crypto'

export function fingerprint(value: unknown): string {
  return hash('sha256', canonicalJson(value), 'base64url')
}

/** JSON with object keys sorted, so equal values always serialize alike. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) {
    let out = '['
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + canonicalJson(value[i])
    return `${out}]`
  }
  const record = value as Record<string, unknown>
  let out = '{'
  for (const key of Object.keys(record).sort()) {
    if (record[key] === undefined) continue
    out += `${out.length === 1 ? '' : ','}${JSON.stringify(key)}:${canonicalJson(record[key])}`
  }
  return `${out}}`
}
