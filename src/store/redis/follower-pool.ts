/**
 * Connections for the event log's blocking reads (XREAD BLOCK), reused from one follower to the
 * next: opening one per SSE stream cost a TCP connect and a handshake per stream. A follower is
 * stopped with CLIENT UNBLOCK, sent on the command connection, which ends its XREAD as if it had
 * timed out; its connection then serves the next follower. A connection that dropped, or that
 * could not be unblocked cleanly, is closed instead of reused.
 */
import type { Redis } from 'ioredis'
import { blockingOptions } from './connection.js'

export interface Follower {
  readonly connection: Redis
  /** True while an XREAD of this follower may be blocked in Redis. */
  blocked: boolean
}

interface PooledFollower extends Follower {
  clientId: number
  broken: boolean
}

export class FollowerPool {
  readonly #idle: PooledFollower[] = []
  readonly #busy = new Set<PooledFollower>()
  #closed = false

  constructor(
    private readonly redis: Redis,
    /** How many idle connections to keep for the next followers. */
    private readonly maxIdle = 32,
  ) {}

  /** A connection ready for blocking reads: an idle one, or a new one. */
  async acquire(): Promise<Follower> {
    let follower = this.#idle.pop()
    while (follower && (follower.broken || follower.connection.status !== 'ready')) {
      follower.connection.disconnect()
      follower = this.#idle.pop()
    }
    follower ??= await this.#open()
    this.#busy.add(follower)
    return follower
  }

  /** Ends the follower's blocked XREAD, if any, at once. */
  interrupt(follower: Follower): void {
    const pooled = follower as PooledFollower
    if (!pooled.blocked) return
    const breakOff = () => {
      pooled.broken = true
      pooled.connection.disconnect()
    }
    this.redis.client('UNBLOCK', pooled.clientId).then(
      // 0: not blocked (yet, or any more): only a disconnect is sure to end it.
      (unblocked) => unblocked !== 1 && pooled.blocked && breakOff(),
      breakOff,
    )
  }

  /** Takes the connection back; `broken` when its last read failed. */
  release(follower: Follower, broken = false): void {
    const pooled = follower as PooledFollower
    this.#busy.delete(pooled)
    if (broken) pooled.broken = true
    const reusable = !pooled.broken && !this.#closed && pooled.connection.status === 'ready'
    if (reusable && this.#idle.length < this.maxIdle) this.#idle.push(pooled)
    else pooled.connection.disconnect()
  }

  /** Closes every connection; blocked reads fail at once. */
  close(): void {
    this.#closed = true
    for (const follower of [...this.#idle.splice(0), ...this.#busy]) {
      follower.broken = true
      follower.connection.disconnect()
    }
  }

  async #open(): Promise<PooledFollower> {
    const connection = this.redis.duplicate(blockingOptions)
    // An outage reaches the follower as its XREAD's rejection; the event would only be noise.
    connection.on('error', () => undefined)
    try {
      const clientId = Number(await connection.client('ID'))
      const follower: PooledFollower = { connection, clientId, blocked: false, broken: false }
      // A new connection after a drop has another client id: never reuse it.
      connection.once('close', () => (follower.broken = true))
      return follower
    } catch (error) {
      connection.disconnect()
      throw error
    }
  }
}
