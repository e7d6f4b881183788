import { describe, expect, it } from 'vitest'
import { formatUuid, newId } from '../../src/domain/ids.js'

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('ids', () => {
  it('makes version 4 UUIDs, a new one each time, across refills of the random pool', () => {
    const ids = Array.from({ length: 1000 }, newId)
    for (const id of ids) expect(id).toMatch(V4)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('writes 16 bytes as a UUID of the given version with the RFC 9562 variant', () => {
    const bytes = Buffer.from('00ff112233445566778899aabbccddeeff', 'hex')
    expect(formatUuid(bytes, 1, 5)).toBe('ff112233-4455-5677-8899-aabbccddeeff')
    expect(formatUuid(Buffer.alloc(16, 0xff), 0, 4)).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff')
    expect(bytes.toString('hex')).toBe('00ff112233445566778899aabbccddeeff')
  })
})
