import { describe, expect, it } from 'vitest'
import type { TaskState } from '../../src/domain/model.js'
import {
  canTransition,
  isFinal,
  isTerminal,
  predecessorsOf,
} from '../../src/domain/state-machine.js'

const ALL: TaskState[] = [
  'submitted',
  'working',
  'input-required',
  'auth-required',
  'completed',
  'failed',
  'canceled',
  'rejected',
]

describe('task state machine', () => {
  it('follows submitted → working → input-required ⇄ working → completed', () => {
    expect(canTransition('submitted', 'working')).toBe(true)
    expect(canTransition('working', 'input-required')).toBe(true)
    expect(canTransition('input-required', 'working')).toBe(true)
    expect(canTransition('working', 'completed')).toBe(true)
  })

  it('lets a task fail or be canceled from every state that has not ended', () => {
    for (const from of ['submitted', 'working', 'input-required', 'auth-required'] as const) {
      expect(canTransition(from, 'canceled')).toBe(true)
      expect(canTransition(from, 'failed')).toBe(true)
    }
  })

  it('never leaves a terminal state', () => {
    for (const from of ['completed', 'failed', 'canceled', 'rejected'] as const) {
      expect(isTerminal(from)).toBe(true)
      for (const to of ALL) expect(canTransition(from, to)).toBe(false)
    }
  })

  it('does not skip working: submitted cannot complete or ask for input directly', () => {
    expect(canTransition('submitted', 'completed')).toBe(false)
    expect(canTransition('submitted', 'input-required')).toBe(false)
    expect(canTransition('input-required', 'completed')).toBe(false)
  })

  it('treats terminal and interrupted states as final for streams and blocking sends', () => {
    expect(ALL.filter(isFinal)).toEqual([
      'input-required',
      'auth-required',
      'completed',
      'failed',
      'canceled',
      'rejected',
    ])
  })

  it('knows which states may precede a state', () => {
    expect(predecessorsOf('working').sort()).toEqual(
      ['auth-required', 'input-required', 'submitted', 'working'].sort(),
    )
    expect(predecessorsOf('submitted')).toEqual([])
  })
})
