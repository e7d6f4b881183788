import { describe, expect, it } from 'vitest'
import { canonicalJson } from '../../src/domain/canonical-json.js'
import { fingerprint } from '../../src/engine/fingerprint.js'

describe('request fingerprints', () => {
  it('serialize equal values alike, whatever their key order', () => {
    const a = {
      role: 'user',
      parts: [{ kind: 'text', text: 'hi', metadata: { x: 1, y: [2, null] } }],
    }
    const b = {
      parts: [{ metadata: { y: [2, null], x: 1 }, text: 'hi', kind: 'text' }],
      role: 'user',
    }
    expect(canonicalJson(a)).toBe(canonicalJson(b))
    expect(fingerprint(a)).toBe(fingerprint(b))
  })

  it('leave out undefined members, as JSON does', () => {
    expect(canonicalJson({ b: undefined, a: 1 })).toBe('{"a":1}')
    expect(canonicalJson([1, 'two', true, null])).toBe('[1,"two",true,null]')
  })

  it('differ when the content differs', () => {
    expect(fingerprint({ text: 'a' })).not.toBe(fingerprint({ text: 'b' }))
    expect(fingerprint([1, 2])).not.toBe(fingerprint([2, 1]))
  })
})
