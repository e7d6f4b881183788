/**
 * Word of appends to the event logs this process follows, on one pub/sub connection whatever
 * the number of followers. The scripts that append to a task's stream (create.lua, apply.lua)
 * publish the new entry's id on a channel named like the stream's key; a follower watches that
 * channel and reads the stream when told. A channel is subscribed while anyone here watches it.
 *
 * Pub/sub delivers at most once: a notice published while the connection was down is lost. So
 * every watcher is woken when the connection drops and when it is back, and reads again; it
 * never waits on a notice that cannot come.
 */
import type { Redis } from 'ioredis'
import { duplicateRedis } from './connection.js'

type Wake = () => void

export class EventFeed {
  readonly #watchers = new Map<string, Set<Wake>>()
  /** Per channel, the SUBSCRIBE sent for its current watchers (settled once it is in place). */
  readonly #subscribed = new Map<string, Promise<unknown>>()
  #subscriber: Redis | undefined
  #closed = false

  constructor(
    private readonly redis: Redis,
    /** Its connection's name, in CLIENT LIST. */
    private readonly connectionName: string,
  ) {}

  /**
   * Calls `wake` for every append to `channel`, and whenever a notice may have been lost, until
   * the returned function is called. Resolves once the subscription is in place, so that any
   * append after that is told: read the stream after it resolves, not before.
   */
  async watch(channel: string, wake: Wake): Promise<() => void> {
    if (this.#closed) throw new Error('the event feed is closed')
    let watchers = this.#watchers.get(channel)
    if (watchers === undefined) {
      watchers = new Set()
      this.#watchers.set(channel, watchers)
      this.#subscribed.set(channel, this.#connection().subscribe(channel))
    }
    watchers.add(wake)
    const stop = () => this.#unwatch(channel, wake)
    try {
      await this.#subscribed.get(channel)
    } catch (error) {
      stop()
      throw error
    }
    return stop
  }

  /** Wakes every watcher (so each sees that it must stop) and closes the connection. */
  close(): void {
    this.#closed = true
    this.#wakeAll()
    this.#watchers.clear()
    this.#subscribed.clear()
    this.#subscriber?.disconnect()
  }

  #unwatch(channel: string, wake: Wake): void {
    const watchers = this.#watchers.get(channel)
    if (!watchers?.delete(wake) || watchers.size > 0) return
    this.#watchers.delete(channel)
    this.#subscribed.delete(channel)
    // A watcher that comes next subscribes again; Redis runs the two in the order sent. An
    // UNSUBSCRIBE lost with a dropped connection needs no retry: the connection that comes
    // back subscribes only to the channels watched then (see #resubscribe).
    this.#subscriber?.unsubscribe(channel).catch(() => undefined)
  }

  #connection(): Redis {
    if (this.#subscriber) return this.#subscriber
    // Not ioredis's own resubscription: it would subscribe again to every channel it counted,
    // also one whose last watcher left while the connection was down, for as long as the
    // process runs; and it sends that SUBSCRIBE without a handler for its failure.
    const subscriber = duplicateRedis(this.redis, {
      connectionName: this.connectionName,
      autoResubscribe: false,
    })
    // An outage reaches followers as a failed read once they are woken; the event is noise.
    subscriber.on('error', () => undefined)
    subscriber.on('message', (channel: string) => {
      const watchers = this.#watchers.get(channel)
      if (watchers) for (const wake of watchers) wake()
    })
    // Notices published while the connection was down are lost: everyone reads again, at the
    // drop (to meet the outage as a failed read) and once subscribed again.
    subscriber.on('close', () => this.#wakeAll())
    let connectedBefore = false
    subscriber.on('ready', () => {
      const reconnected = connectedBefore
      connectedBefore = true
      this.#resubscribe(subscriber, reconnected)
    })
    this.#subscriber = subscriber
    return subscriber
  }

  /**
   * On a connection that has just become ready: after a reconnection, subscribes to every
   * channel watched now; then wakes every watcher. On the first connection, the SUBSCRIBEs that
   * watchers queued meanwhile go first, so a PING answered after them means they are in place.
   */
  #resubscribe(subscriber: Redis, reconnected: boolean): void {
    const wakeAll = () => this.#wakeAll()
    const channels = reconnected ? [...this.#watchers.keys()] : []
    if (channels.length === 0) {
      subscriber.ping().then(wakeAll, wakeAll)
      return
    }
    const subscribed = subscriber.subscribe(...channels)
    // A watcher that comes meanwhile waits for this SUBSCRIBE, as for its own.
    for (const channel of channels) this.#subscribed.set(channel, subscribed)
    subscribed.then(wakeAll, wakeAll)
  }

  #wakeAll(): void {
    for (const watchers of this.#watchers.values()) for (const wake of watchers) wake()
  }
}
