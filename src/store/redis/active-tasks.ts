/** ActiveTasks on Redis: one sorted set of leases per caller, shared by every process. */
import type { Redis } from 'ioredis'
import type { ActiveTasks } from '../active-tasks.js'
import { whileReachable } from './connection.js'
import { activeTaskKey } from './keys.js'
import type { TaskScripts } from './scripts.js'

export class RedisActiveTasks implements ActiveTasks {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly scripts: Pick<TaskScripts, 'admit'>,
  ) {}

  admit(caller: string, taskId: string, limit: number, leaseMs: number): Promise<boolean> {
    return whileReachable(async () => {
      const key = activeTaskKey(this.prefix, caller)
      const reply = await this.scripts.admit([key], [taskId, String(limit), String(leaseMs)])
      return reply === 1
    })
  }

  release(caller: string, taskId: string): Promise<void> {
    return whileReachable(async () => {
      await this.redis.zrem(activeTaskKey(this.prefix, caller), taskId)
    })
  }
}
