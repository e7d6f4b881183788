/** Whole numbers read from JSON and from text: one message per way a value can be wrong. */
import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { plainly } from '../../src/domain/issue-messages.js'
import { wholeNumber, wholeNumberFromText } from '../../src/domain/whole-number.js'

const read = (schema: z.ZodType<number>, value: unknown) => {
  const result = schema.safeParse(value, plainly)
  return result.success ? result.data : result.error.issues[0]!.message
}

describe('wholeNumberFromText', () => {
  const count = wholeNumberFromText(0, 1000)

  it('reads a number, or its digits as a person writes them', () => {
    expect(read(count, 7)).toBe(7)
    expect(read(count, '7')).toBe(7)
    expect(read(count, ' 12 ')).toBe(12)
    expect(read(count, '+3')).toBe(3)
  })

  it('refuses what only a coercion would make a number', () => {
    for (const value of [true, [7], [], null, '', ' ', '0x10', '1e3', 'abc', ['1', '2'], {}]) {
      expect(read(count, value), JSON.stringify(value)).toBe('must be a number')
    }
  })

  it('says a fraction is not whole, and a number outside the range what the range is', () => {
    expect(read(count, '1.5')).toBe('must be a whole number')
    expect(read(count, 2.5)).toBe('must be a whole number')
    expect(read(count, '-1')).toBe('must be from 0 to 1000')
    expect(read(count, 1001)).toBe('must be from 0 to 1000')
    expect(read(count, '99999999999999999999')).toBe('must be from 0 to 1000')
    expect(read(wholeNumberFromText(0), 1e20)).toBe('must be at most 9007199254740991')
  })
})

describe('wholeNumber', () => {
  it('takes JSON numbers only', () => {
    const count = wholeNumber(1)
    expect(read(count, 4)).toBe(4)
    expect(read(count, '4')).toBe('must be a number')
    expect(read(count, 0)).toBe('must be 1 or more')
  })
})
