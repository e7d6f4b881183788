/**
 * How ProtoJSON (the protobuf JSON mapping) reads field values, as zod building blocks for the
 * 1.0 request schemas: an enum by its name or its number, an int32 as a JSON number or its
 * decimal text, and `null` as "unset" for any field. Field names are proto-json.ts's concern.
 * Each is a zod preprocess of one value (a message's own members, never what they hold), so
 * reading a request leniently costs no walk of it.
 */
import { z } from 'zod'
import { wholeNumberFromText } from '../../domain/whole-number.js'

/** A proto enum: its value names and their numbers, as a2a.proto declares them. */
export type EnumTable = Readonly<Record<string, number>>

const DIGITS = /^-?\d+$/

/**
 * The name an enum value stands for: a number (a JSON number, or its digits as protobuf's Java
 * and Python parsers also read it) becomes its name; anything else is left for the check.
 */
export function enumName(table: EnumTable): (value: unknown) => unknown {
  const names = new Map(Object.entries(table).map(([name, number]) => [number, name]))
  return (value) => {
    const number =
      typeof value === 'number'
        ? value
        : typeof value === 'string' && DIGITS.test(value)
          ? +value
          : NaN
    return names.get(number) ?? value
  }
}

/** An enum field read by name or number, yielding the name; anything else is "must be one of …". */
export function protoEnum<T extends EnumTable>(table: T) {
  const names = Object.keys(table) as [keyof T & string, ...(keyof T & string)[]]
  return z.preprocess(enumName(table), z.enum(names))
}

const INT32_MAX = 2 ** 31 - 1

/**
 * An int32 field: a JSON number or its decimal text (ProtoJSON reads both), whole, from `min` to
 * `max` (to the int32 limit when not given). Query strings read their numbers with it too.
 */
export const protoInt32 = (min: number, max?: number) =>
  max === undefined
    ? wholeNumberFromText(min).refine((value) => value <= INT32_MAX, {
        error: `must be at most ${INT32_MAX}`,
      })
    : wholeNumberFromText(min, Math.min(max, INT32_MAX))

/** A copy of `record` without the members sent as `null` (but those in `keep`), or it itself. */
function withoutNulls(value: unknown, keep: ReadonlySet<string>): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value
  const record = value as Record<string, unknown>
  let copy: Record<string, unknown> | undefined
  for (const key in record) {
    if (record[key] === null && !keep.has(key)) delete (copy ??= { ...record })[key]
  }
  return copy ?? record
}

/**
 * A proto message: a member sent as `null` is unset, as if left out, which is ProtoJSON's rule
 * for every field but a google.protobuf.Value, whose `null` is a value (name those in `values`).
 * A required field sent as `null` is then "is required".
 */
export function protoMessage<Shape extends z.ZodRawShape>(
  shape: Shape,
  { values = [] }: { values?: readonly (keyof Shape & string)[] } = {},
) {
  const keep = new Set<string>(values)
  return z.preprocess((value) => withoutNulls(value, keep), z.object(shape))
}
