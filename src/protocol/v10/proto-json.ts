/**
 * ProtoJSON parsers accept a field by its proto name (`history_length`) as well as its JSON name
 * (`historyLength`). This turns proto names into JSON names before a request is validated,
 * leaving user content (`metadata`, a data part's `data`) exactly as sent. A request that uses
 * JSON names only (every SDK's) is returned as it is, without a copy.
 */
const OPAQUE = new Set(['metadata', 'data', 'params'])

const jsonName = (key: string): string =>
  key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())

export function fromProtoNames(value: unknown): unknown {
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i]
      const converted = fromProtoNames(item)
      if (converted !== item) (copy ??= value.slice())[i] = converted
    }
    return copy ?? value
  }
  if (value === null || typeof value !== 'object') return value
  const record = value as Record<string, unknown>
  let copy: Record<string, unknown> | undefined
  for (const key in record) {
    const field = record[key]
    const name = key.includes('_') ? jsonName(key) : key
    const converted = OPAQUE.has(name) ? field : fromProtoNames(field)
    if (name === key && converted === field) continue
    copy ??= { ...record }
    if (name !== key) {
      delete copy[key]
      // A JSON name given alongside its proto name wins.
      if (name in record) continue
    }
    copy[name] = converted
  }
  return copy ?? record
}
