/** ProtoJSON's value forms (the protobuf JSON mapping), as the 1.0 request schemas read them. */
import { z } from 'zod'
import { describe, expect, it } from 'vitest'
import { plainly } from '../../src/domain/issue-messages.js'
import { protoEnum, protoInt32, protoMessage } from '../../src/protocol/v10/proto-fields.js'

/** The value read, or the first problem as a user sees it: `path: message`. */
const read = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value, plainly)
  if (result.success) return result.data
  const [issue] = result.error.issues
  return `${issue!.path.join('.')}: ${issue!.message}`
}

describe('protoEnum', () => {
  const Color = protoEnum({ COLOR_UNSPECIFIED: 0, COLOR_RED: 1, COLOR_BLUE: 2 })

  it('reads a value by its name', () => {
    expect(read(Color, 'COLOR_BLUE')).toBe('COLOR_BLUE')
  })

  it('reads a value by its number, and by its number written as digits, as its name', () => {
    expect(read(Color, 1)).toBe('COLOR_RED')
    expect(read(Color, 0)).toBe('COLOR_UNSPECIFIED')
    expect(read(Color, '2')).toBe('COLOR_BLUE')
  })

  it('refuses an unknown name or number, naming the values there are', () => {
    const oneOf = ': must be one of "COLOR_UNSPECIFIED", "COLOR_RED", "COLOR_BLUE"'
    for (const value of ['COLOR_GREEN', 'color_red', 3, -1, 1.5, '1.0', '', true]) {
      expect(read(Color, value)).toBe(oneOf)
    }
  })
})

describe('protoInt32', () => {
  const Count = protoInt32(0)
  const PageSize = protoInt32(1, 100)

  it('reads a JSON number or its decimal text', () => {
    expect(read(Count, 5)).toBe(5)
    expect(read(Count, '5')).toBe(5)
    expect(read(PageSize, '100')).toBe(100)
  })

  it('says what is wrong: not a number, not whole, or out of range', () => {
    expect(read(Count, 'five')).toBe(': must be a number')
    expect(read(Count, '')).toBe(': must be a number')
    expect(read(Count, true)).toBe(': must be a number')
    expect(read(Count, '1.5')).toBe(': must be a whole number')
    expect(read(Count, -1)).toBe(': must be 0 or more')
    expect(read(PageSize, '0')).toBe(': must be from 1 to 100')
  })

  it('stops at the int32 limit', () => {
    expect(read(Count, 2 ** 31 - 1)).toBe(2 ** 31 - 1)
    expect(read(Count, String(2 ** 31))).toBe(': must be at most 2147483647')
    expect(read(protoInt32(0, 2 ** 40), 2 ** 31)).toBe(': must be from 0 to 2147483647')
  })
})

describe('protoMessage', () => {
  const Message = protoMessage(
    { id: z.string(), note: z.string().optional(), value: z.unknown().optional() },
    { values: ['value'] },
  )

  it('reads a member sent as null as unset', () => {
    expect(read(Message, { id: 'a', note: null })).toEqual({ id: 'a' })
  })

  it('reads a required member sent as null as missing', () => {
    expect(read(Message, { id: null })).toBe('id: is required')
  })

  it('keeps null where it is a value (google.protobuf.Value)', () => {
    expect(read(Message, { id: 'a', value: null })).toEqual({ id: 'a', value: null })
  })

  it('still checks the members that are not null, naming them', () => {
    expect(read(Message, { id: 'a', note: 5 })).toBe('note: must be a string')
    expect(read(Message, 'a')).toBe(': must be an object')
  })
})
