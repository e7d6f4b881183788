/**
 * The process's one pub/sub subscription (one connection, whatever the number of tasks): cancels
 * for the worker, and "turn ended" notices for the turns this process dispatched. Pub/sub
 * delivers at most once, so after a reconnection `onReconnected` lets the owners look again at
 * what they may have missed.
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
  #connectedOnce = false

  constructor(
    private readonly subscriber: Redis,
    private readonly handlers: ControlHandlers,
    private readonly log: Logger,
  ) {}

  /** Subscribes in the background; ioredis subscribes again after every reconnection. */
  start(): void {
    const { channels, onReconnected } = this.handlers
    this.subscriber.on('message', (channel: string, taskId: string) => channels[channel]?.(taskId))
    this.subscriber.on('ready', () => {
      if (this.#connectedOnce) onReconnected()
      this.#connectedOnce = true
    })
    this.subscriber.subscribe(...Object.keys(channels)).catch((error: unknown) => {
      // Retried by autoResubscribe once the connection is back.
      this.log.warn({ err: redisFailure(error) }, 'cannot subscribe to the control channels yet')
    })
  }

  close(): void {
    this.subscriber.disconnect()
  }
}
