import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { canonicalJson, jsonString } from '../../src/domain/canonical-json.js'

describe('canonical JSON', () => {
  it('quotes a string exactly as JSON.stringify does', () => {
    for (const text of [
      '',
      'plain',
      'a"b',
      'back\\slash',
      'line\nfeed',
      '\u0000',
      '\u2028',
      '😀',
      '\ud800',
      'x\udfffy',
    ]) {
      expect(jsonString(text)).toBe(JSON.stringify(text))
    }
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        (text) => jsonString(text) === JSON.stringify(text),
      ),
      { numRuns: 2000 },
    )
  })

  it('sorts keys at every level and leaves undefined members out', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, 'x', null], c: undefined }, é: true })).toBe(
      '{"a":{"d":[1,"x",null]},"b":1,"é":true}',
    )
  })

  it('is JSON that parses back to the same value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)))
      }),
      { numRuns: 500 },
    )
  })
})
