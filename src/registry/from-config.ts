/**
 * The server's registry, from its configuration: in Redis (shared by every replica, on its own
 * connection) when REDIS_URL is set, in memory otherwise.
 */
import type { Config } from '../config.js'
import { outboundFetch } from '../outbound/fetch.js'
import { connectionName, connectRedis } from '../store/redis/connection.js'
import { MemoryRegistryStore } from './memory-store.js'
import { RedisRegistryStore } from './redis-store.js'
import { AgentRegistry } from './registry.js'

export function registryFromConfig(
  config: Config,
  log?: { warn(object: object, message: string): void },
): AgentRegistry {
  const store =
    config.REDIS_URL === undefined
      ? new MemoryRegistryStore()
      : new RedisRegistryStore({
          redis: quiet(
            connectRedis(config.REDIS_URL, connectionName(config.REDIS_KEY_PREFIX, 'registry')),
          ),
          prefix: config.REDIS_KEY_PREFIX,
          ownsConnection: true,
        })
  return new AgentRegistry({
    store,
    fetch: outboundFetch,
    checkIntervalMs: config.REGISTRY_CHECK_INTERVAL_MS,
    unhealthyAfter: config.REGISTRY_UNHEALTHY_AFTER,
    maxBackoffMs: config.REGISTRY_MAX_BACKOFF_MS,
    checkTimeoutMs: config.REGISTRY_CHECK_TIMEOUT_MS,
    ...(log && { log }),
  })
}

/**
 * Without a listener, ioredis prints every connection error to stderr, outside the log. The
 * registry's failed commands report an outage (its requests answer 503, its checks log), and
 * the server's main connection logs it once: this connection's own errors would only repeat it.
 */
function quiet<R extends { on(event: 'error', listener: () => void): unknown }>(redis: R): R {
  redis.on('error', () => undefined)
  return redis
}
