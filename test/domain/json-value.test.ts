/** jsonProblem: what JSON cannot carry as it is, and where, in what a skill hands over. */
import { describe, expect, it } from 'vitest'
import { jsonProblem } from '../../src/domain/json-value.js'

describe('jsonProblem', () => {
  it('finds nothing in JSON values, Dates and left-out undefined members', () => {
    for (const value of [
      null,
      'text',
      0,
      -1.5,
      true,
      [],
      {},
      { nested: [{ deep: [1, 'two', null, false] }], when: new Date(0), maybe: undefined },
    ]) {
      expect(jsonProblem(value)).toBeUndefined()
    }
    // The same object twice, not inside itself, is no cycle.
    const shared = { a: 1 }
    expect(jsonProblem({ left: shared, right: [shared, shared] })).toBeUndefined()
  })

  it('names where the first value JSON cannot carry is, and what to do', () => {
    const circular: Record<string, unknown> = { a: 1 }
    circular.self = { back: circular }
    expect(jsonProblem({ n: 10n })).toEqual({
      path: ['n'],
      message:
        'is a BigInt, which JSON cannot carry; convert it (String(value), or Number(value) when it fits)',
    })
    expect(jsonProblem(circular)).toEqual({
      path: ['self', 'back'],
      message: 'refers back to an object that contains it (a cycle), which JSON cannot carry',
    })
    expect(jsonProblem({ list: [1, new Map([['k', 1]])] })).toEqual({
      path: ['list', 1],
      message: 'is a Map, which JSON writes as {}; convert it (Object.fromEntries(value))',
    })
    expect(jsonProblem([new Set([1])])?.message).toBe(
      'is a Set, which JSON writes as {}; convert it ([...value])',
    )
    expect(jsonProblem({ ratio: Number.NaN })?.message).toBe(
      'is NaN, which JSON cannot carry (it would arrive as null)',
    )
    expect(jsonProblem({ run: () => 1 })).toEqual({
      path: ['run'],
      message: 'is a function, which JSON cannot carry',
    })
    expect(jsonProblem({ id: Symbol('x') })?.message).toBe('is a symbol, which JSON cannot carry')
  })

  it('refuses nesting deeper than it walks, without overflowing the stack', () => {
    let deep: unknown = 'bottom'
    for (let i = 0; i < 100_000; i++) deep = [deep]
    expect(jsonProblem(deep)?.message).toBe('is nested deeper than 512 levels')
  })
})
