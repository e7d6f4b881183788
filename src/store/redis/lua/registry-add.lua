--[[
  Adds one agent registry entry unless its id is taken, and appends the id to the registration
  order, in one step, so that list() returns agents in the order they were registered even when
  several were registered within the same millisecond. Used by src/registry/redis-store.ts.

  KEYS[1]  the registry hash (registryKeys(prefix).agents)
  KEYS[2]  the registration order, a list of agent ids (registryKeys(prefix).order)
  ARGV[1]  the agent id (the hash field)
  ARGV[2]  the entry, as JSON

  Returns 1 when added; 0 when an entry with this id exists.
]]
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('RPUSH', KEYS[2], ARGV[1])
return 1
