/** TurnBatch: what one turn of the event loop queues is sent as one call, after the turn. */
import { describe, expect, it } from 'vitest'
import { TurnBatch } from '../../src/store/redis/turn-batch.js'

describe('TurnBatch', () => {
  it('sends the items of one turn together, in order, once the turn is over', async () => {
    const calls: number[][] = []
    const batch = new TurnBatch<number>(async (items) => void calls.push(items))
    const sent = [batch.add(1), batch.add(2), batch.add(3)]
    await Promise.resolve()
    expect(calls).toEqual([]) // not within the turn
    await Promise.all(sent)
    expect(calls).toEqual([[1, 2, 3]])
    await batch.add(4)
    expect(calls).toEqual([[1, 2, 3], [4]])
  })

  it('rejects every item of a call that failed; sent() resolves all the same', async () => {
    const batch = new TurnBatch<string>(() => Promise.reject(new Error('Redis is down')))
    const added = [batch.add('a'), batch.add('b')]
    const done = batch.sent()
    for (const item of added) await expect(item).rejects.toThrow('Redis is down')
    await expect(done).resolves.toBeUndefined()
  })

  it('has nothing to wait for when nothing is queued', async () => {
    const batch = new TurnBatch<string>(() => Promise.resolve())
    await expect(batch.sent()).resolves.toBeUndefined()
  })
})
