import { describe, expect, it } from 'vitest'
import { VerifiedTokens } from '../../../src/http/auth/verified-tokens.js'

const alice = { id: 'alice', scopes: ['a2a:invoke'] }
const bob = { id: 'bob', scopes: ['a2a:invoke'] }
const NOW = 1_800_000_000_000

describe('remembering verified tokens', () => {
  it('remembers a caller until the token expires, and not a moment longer', () => {
    const tokens = new VerifiedTokens(10, 600_000)
    tokens.set('Bearer a', alice, NOW / 1000 + 60, NOW)
    expect(tokens.get('Bearer a', NOW + 59_999)).toBe(alice)
    expect(tokens.get('Bearer a', NOW + 60_000)).toBeUndefined()
    // A lapsed entry is gone: only a fresh verification brings it back.
    expect(tokens.size).toBe(0)
  })

  it('forgets a long-lived token after the ttl, so it is verified again', () => {
    const tokens = new VerifiedTokens(10, 600_000)
    tokens.set('Bearer a', alice, NOW / 1000 + 24 * 3600, NOW)
    expect(tokens.get('Bearer a', NOW + 599_999)).toBe(alice)
    expect(tokens.get('Bearer a', NOW + 600_000)).toBeUndefined()
  })

  it('keeps nothing for a token without a usable exp, or already expired', () => {
    const tokens = new VerifiedTokens(10, 600_000)
    tokens.set('Bearer none', alice, undefined, NOW)
    tokens.set('Bearer text', alice, '9999999999', NOW)
    tokens.set('Bearer past', alice, NOW / 1000 - 1, NOW)
    expect(tokens.size).toBe(0)
  })

  it('holds at most `max` entries, dropping the oldest first', () => {
    const tokens = new VerifiedTokens(2, 600_000)
    const exp = NOW / 1000 + 60
    tokens.set('Bearer a', alice, exp, NOW)
    tokens.set('Bearer b', bob, exp, NOW)
    tokens.set('Bearer c', bob, exp, NOW)
    expect(tokens.size).toBe(2)
    expect(tokens.get('Bearer a', NOW)).toBeUndefined()
    expect(tokens.get('Bearer b', NOW)).toBe(bob)
    expect(tokens.get('Bearer c', NOW)).toBe(bob)
  })

  it('tells headers apart exactly', () => {
    const tokens = new VerifiedTokens(10, 600_000)
    tokens.set('Bearer a', alice, NOW / 1000 + 60, NOW)
    expect(tokens.get('Bearer a ', NOW)).toBeUndefined()
    expect(tokens.get('bearer a', NOW)).toBeUndefined()
  })
})
