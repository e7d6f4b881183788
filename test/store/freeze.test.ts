import { describe, expect, it } from 'vitest'
import { deepFreeze } from '../../src/store/memory/freeze.js'

describe('deepFreeze', () => {
  it('freezes every own object and array, however deep', () => {
    const value = { a: { b: [{ c: 1 }, [2, { d: 'e' }]] }, f: null, g: 'text' }
    deepFreeze(value)
    expect(Object.isFrozen(value)).toBe(true)
    expect(Object.isFrozen(value.a)).toBe(true)
    expect(Object.isFrozen(value.a.b)).toBe(true)
    expect(Object.isFrozen(value.a.b[0])).toBe(true)
    expect(Object.isFrozen((value.a.b[1] as unknown[])[1])).toBe(true)
  })

  it('leaves alone what a value only inherits', () => {
    const shared = { settings: { mutable: true } }
    const value = Object.assign(Object.create(shared) as object, { own: { x: 1 } }) as {
      own: { x: number }
      settings: { mutable: boolean }
    }
    deepFreeze(value)
    expect(Object.isFrozen(value.own)).toBe(true)
    expect(Object.isFrozen(shared.settings)).toBe(false)
  })
})
