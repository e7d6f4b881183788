/**
 * The process's one pub/sub subscription (one connection, whatever the number of tasks): cancels
 * for the worker, and "turn ended" notices for the turns this process dispatched. Pub/sub
 * delivers at most once, so after a reconnection `onReconnected` lets the owners look again at
 * what they may have missed. Its connection must have `autoResubscribe: false` (see start).
 */
import type { Redis } from 'ioredis'
import type { Logger } from 'pino'
import { redisFailure } from '../../store/redis/connection.js'

export interface ControlHandlers {
  /** channel → what to do with a message on it (the message is a task id). */
  channels: Record<string, (taskId: string) => void>
  onReconnected: () => void
}

export class ControlChannel {
  /** The subscription must be made (again) once the connection is ready. */
  #lost = false

  constructor(
    private readonly subscriber: Redis,
    private readonly handlers: ControlHandlers,
    private readonly log: Logger,
  ) {}

  /**
   * Subscribes in the background, and again each time the connection is back: its connection
   * has ioredis's own resubscription off, which sends its SUBSCRIBE without a handler for its
   * failure. After a reconnection, `onReconnected` runs once the subscription is in place.
   */
  start(): void {
    const { channels } = this.handlers
    this.subscriber.on('message', (channel: string, taskId: string) => channels[channel]?.(taskId))
    this.subscriber.on('close', () => (this.#lost = true))
    this.subscriber.on('ready', () => {
      if (this.#lost) this.#subscribe(true)
    })
    this.#subscribe(false)
  }

  close(): void {
    this.subscriber.disconnect()
  }

  #subscribe(again: boolean): void {
    this.#lost = false
    this.subscriber.subscribe(...Object.keys(this.handlers.channels)).then(
      () => {
        if (again) this.handlers.onReconnected()
      },
      (error: unknown) => {
        this.#lost = true
        // Closed for good (closing, or a database Redis lacks, which the connection's log says):
        // there is no later to subscribe in.
        if (this.subscriber.status === 'end') return
        this.log.warn({ err: redisFailure(error) }, 'cannot subscribe to the control channels yet')
      },
    )
  }
}
