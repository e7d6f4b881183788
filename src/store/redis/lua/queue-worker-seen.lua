--[[
  A worker says it is alive, and which skills it runs: its name is scored with Redis' own clock
  (so the clocks of the machines the workers run on never matter), and workers not seen for
  `forgetAfterMs` are dropped with their skills, so both keys hold only recent workers.

  KEYS[1]  the workers' sorted set   <prefix>queue:{turns}:workers
  KEYS[2]  the workers' skills       <prefix>queue:{turns}:worker-skills (hash: name → ids)
  ARGV[1]  this worker's consumer name
  ARGV[2]  forgetAfterMs: how long a silent worker stays in the set
  ARGV[3]  its skill ids, space-separated

  Returns the time it was scored with (ms)
]]
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
local cutoff = '(' .. (now - tonumber(ARGV[2]))
local stale = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', cutoff)
if #stale > 0 then
  redis.call('HDEL', KEYS[2], unpack(stale))
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', cutoff)
end
return now
