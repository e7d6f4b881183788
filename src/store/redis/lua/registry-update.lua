--[[
  Replaces one agent registry entry, only if it is still the revision the caller read
  (compare-and-set), so a health check never overwrites a newer registration nor brings back a
  removed agent. Used by src/registry/redis-store.ts.

  KEYS[1]  the registry hash (registryKeys(prefix).agents)
  ARGV[1]  the agent id (the hash field)
  ARGV[2]  the revision the caller read
  ARGV[3]  the new entry, as JSON (its revision is ARGV[2] + 1)

  Returns 1 when replaced; 0 when the entry is gone or has another revision.
]]
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return 0 end
local ok, entry = pcall(cjson.decode, current)
if not ok or tostring(entry.revision) ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
