--[[
  Admits a task as one of a caller's active tasks, under the caller's cap (ActiveTasks.admit).
  Leases are scored by when they lapse, on Redis' clock, so every process agrees on "now".

  KEYS[1]  the caller's active tasks   <prefix>active:{<caller>}   sorted set: taskId → lapse (ms)

  ARGV[1]  taskId
  ARGV[2]  the cap: how many active tasks the caller may have
  ARGV[3]  the lease, in ms

  Returns 1 when admitted (or renewed), 0 when the caller is at the cap; nothing is written then.
]]
local key, taskId = KEYS[1], ARGV[1]
local limit, lease = tonumber(ARGV[2]), tonumber(ARGV[3])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)

if not redis.call('ZSCORE', key, taskId) then
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  if redis.call('ZCARD', key) >= limit then
    return 0
  end
end
redis.call('ZADD', key, now + lease, taskId)
-- The set outlives its newest lease by nothing: an idle caller leaves no key behind.
redis.call('PEXPIREAT', key, now + lease, 'GT')
redis.call('PEXPIREAT', key, now + lease, 'NX')
return 1
