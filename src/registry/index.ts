/** The agent registry: register agents by URL, find them by skill or tag, watch their health. */
export { AgentRegistry, DEFAULT_HEALTH_CHECKS } from './registry.js'
export type { AgentFilter, AgentRegistryOptions } from './registry.js'
export type { AgentEntry, RegisteredSkill } from './entry.js'
export type { HealthCheckSettings } from './health-check.js'
export type { RegistryStore } from './store.js'
export { MemoryRegistryStore } from './memory-store.js'
export { RedisRegistryStore } from './redis-store.js'
export type { RedisRegistryStoreOptions } from './redis-store.js'
