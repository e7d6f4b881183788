/**
 * Writes that many requests make in one turn of the event loop, sent together after it: the
 * index entries of the tasks written in a turn, the acknowledgements of the turns that ended in
 * it, the leases released in it. `add` queues an item; once the turn's I/O callbacks have run
 * (setImmediate), `send` gets every item queued in the turn, in order, as one call. Each `add`
 * resolves (or rejects, with the others) when that call has answered.
 */
export class TurnBatch<T> {
  #items: T[] | undefined
  #sent: Promise<void> | undefined

  constructor(private readonly send: (items: T[]) => Promise<unknown>) {}

  add(item: T): Promise<void> {
    if (this.#items === undefined) {
      const items: T[] = []
      this.#items = items
      this.#sent = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
        this.#items = undefined
        this.#sent = undefined
        await this.send(items)
      })
    }
    this.#items.push(item)
    return this.#sent!
  }

  /** Resolves once the items queued so far have been sent (whether or not that failed). */
  async sent(): Promise<void> {
    await this.#sent?.catch(() => undefined)
  }
}
