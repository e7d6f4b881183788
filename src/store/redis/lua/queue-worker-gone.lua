--[[
  A worker that stops leaves the workers' set and its skills.

  KEYS[1]  the workers' sorted set   <prefix>queue:{turns}:workers
  KEYS[2]  the workers' skills       <prefix>queue:{turns}:worker-skills
  ARGV[1]  its consumer name

  Returns 1 when it was in the set, 0 otherwise
]]
redis.call('HDEL', KEYS[2], ARGV[1])
return redis.call('ZREM', KEYS[1], ARGV[1])
