/**
 * The registry in Redis, shared by every replica on the same REDIS_URL and REDIS_KEY_PREFIX:
 * one hash of entries (agent id → JSON), a list of the ids in registration order, and a short
 * SET NX PX claim per scheduled check. Keys come from registryKeys (src/store/redis/keys.ts); they
 * share the `{agents}` hash tag. An add appends to the order in the same step
 * (lua/registry-add.lua); a health check's write is a compare-and-set on the entry's revision
 * (lua/registry-update.lua).
 */
import { readFileSync } from 'node:fs'
import type { ChainableCommander, Redis } from 'ioredis'
import { registryKeys } from '../store/redis/keys.js'
import { whileReachable } from '../store/redis/connection.js'
import { AgentEntry } from './entry.js'
import type { RegistryStore } from './store.js'

/** The scripts, registered under versioned names (a changed script gets a new name). */
const ADD_COMMAND = 'a2aRegistryAddV1'
const UPDATE_COMMAND = 'a2aRegistryUpdateV1'
const script = (name: string) =>
  readFileSync(new URL(`../store/redis/lua/${name}.lua`, import.meta.url), 'utf8')

type WithScripts = Redis &
  Record<typeof ADD_COMMAND | typeof UPDATE_COMMAND, (...args: string[]) => Promise<number>>

export interface RedisRegistryStoreOptions {
  redis: Redis
  prefix: string
  /** Quit the connection on close (when the store opened it). */
  ownsConnection?: boolean
}

export class RedisRegistryStore implements RegistryStore {
  readonly #redis: WithScripts
  readonly #keys: ReturnType<typeof registryKeys>
  readonly #ownsConnection: boolean

  constructor(options: RedisRegistryStoreOptions) {
    const redis = options.redis as WithScripts
    if (typeof redis[ADD_COMMAND] !== 'function') {
      redis.defineCommand(ADD_COMMAND, { numberOfKeys: 2, lua: script('registry-add') })
    }
    if (typeof redis[UPDATE_COMMAND] !== 'function') {
      redis.defineCommand(UPDATE_COMMAND, { numberOfKeys: 1, lua: script('registry-update') })
    }
    this.#redis = redis
    this.#keys = registryKeys(options.prefix)
    this.#ownsConnection = options.ownsConnection ?? false
  }

  list(): Promise<AgentEntry[]> {
    return whileReachable(async () => {
      const [all, order] = (await replies(
        this.#redis.multi().hgetall(this.#keys.agents).lrange(this.#keys.order, 0, -1),
      )) as [Record<string, string>, string[]]
      const place = new Map(order.map((id, index) => [id, index]))
      const placeOf = (id: string) => place.get(id) ?? order.length
      return Object.entries(all)
        .sort(([a], [b]) => placeOf(a) - placeOf(b))
        .flatMap(([, json]) => decode(json) ?? [])
    })
  }

  get(agentId: string): Promise<AgentEntry | undefined> {
    return whileReachable(async () => decode(await this.#redis.hget(this.#keys.agents, agentId)))
  }

  add(entry: AgentEntry): Promise<boolean> {
    return whileReachable(async () => {
      const { agents, order } = this.#keys
      return (await this.#redis[ADD_COMMAND](agents, order, entry.id, JSON.stringify(entry))) === 1
    })
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
    return whileReachable(async () => {
      const [removed] = await replies(
        this.#redis.multi().hdel(this.#keys.agents, agentId).lrem(this.#keys.order, 0, agentId),
      )
      return removed === 1
    })
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

/** The replies of a transaction, in order; its first failed command throws. */
async function replies(transaction: ChainableCommander): Promise<unknown[]> {
  const results = (await transaction.exec()) ?? []
  return results.map(([error, reply]) => {
    if (error) throw error
    return reply
  })
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
