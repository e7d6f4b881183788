/**
 * The registry in Redis, shared by every replica on the same REDIS_URL and REDIS_KEY_PREFIX:
 * one hash of entries (agent id → JSON) and a short SET NX PX claim per scheduled check. Keys come
 * from registryKeys (src/store/redis/keys.ts); they share the `{agents}` hash tag. A health
 * check's write is a compare-and-set on the entry's revision (lua/registry-update.lua).
 */
import { readFileSync } from 'node:fs'
import type { Redis } from 'ioredis'
import { registryKeys } from '../store/redis/keys.js'
import { whileReachable } from '../store/redis/connection.js'
import { AgentEntry } from './entry.js'
import type { RegistryStore } from './store.js'

/** The script, registered under a versioned name (a changed script gets a new name). */
const UPDATE_COMMAND = 'a2aRegistryUpdateV1'
const updateScript = () =>
  readFileSync(new URL('../store/redis/lua/registry-update.lua', import.meta.url), 'utf8')

type WithUpdate = Redis & Record<typeof UPDATE_COMMAND, (...args: string[]) => Promise<number>>

export interface RedisRegistryStoreOptions {
  redis: Redis
  prefix: string
  /** Quit the connection on close (when the store opened it). */
  ownsConnection?: boolean
}

export class RedisRegistryStore implements RegistryStore {
  readonly #redis: WithUpdate
  readonly #keys: ReturnType<typeof registryKeys>
  readonly #ownsConnection: boolean

  constructor(options: RedisRegistryStoreOptions) {
    const redis = options.redis as WithUpdate
    if (typeof redis[UPDATE_COMMAND] !== 'function') {
      redis.defineCommand(UPDATE_COMMAND, { numberOfKeys: 1, lua: updateScript() })
    }
    this.#redis = redis
    this.#keys = registryKeys(options.prefix)
    this.#ownsConnection = options.ownsConnection ?? false
  }

  list(): Promise<AgentEntry[]> {
    return whileReachable(async () => {
      const all = await this.#redis.hgetall(this.#keys.agents)
      return Object.values(all).flatMap((json) => decode(json) ?? [])
    })
  }

  get(agentId: string): Promise<AgentEntry | undefined> {
    return whileReachable(async () => decode(await this.#redis.hget(this.#keys.agents, agentId)))
  }

  add(entry: AgentEntry): Promise<boolean> {
    return whileReachable(
      async () =>
        (await this.#redis.hsetnx(this.#keys.agents, entry.id, JSON.stringify(entry))) === 1,
    )
  }

  replace(entry: AgentEntry): Promise<boolean> {
    return whileReachable(async () => {
      const replaced = await this.#redis[UPDATE_COMMAND](
        this.#keys.agents,
        entry.id,
        String(entry.revision - 1),
        JSON.stringify(entry),
      )
      return replaced === 1
    })
  }

  remove(agentId: string): Promise<boolean> {
    return whileReachable(async () => (await this.#redis.hdel(this.#keys.agents, agentId)) === 1)
  }

  claimCheck(agentId: string, dueAt: string, ttlMs: number): Promise<boolean> {
    return whileReachable(async () => {
      const key = this.#keys.checkClaim(agentId, dueAt)
      return (await this.#redis.set(key, '1', 'PX', ttlMs, 'NX')) === 'OK'
    })
  }

  async close(): Promise<void> {
    if (this.#ownsConnection) await this.#redis.quit().catch(() => this.#redis.disconnect())
  }
}

/** An entry as stored; one that no longer parses (an older layout) is skipped, not fatal. */
function decode(json: string | null): AgentEntry | undefined {
  if (json === null) return undefined
  try {
    const parsed = AgentEntry.safeParse(JSON.parse(json))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}
