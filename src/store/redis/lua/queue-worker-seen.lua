--[[
  A worker says it is alive: its name is scored with Redis' own clock (so the clocks of the
  machines the workers run on never matter), and names not seen for `forgetAfterMs` are dropped,
  so the set holds only recent workers.

  KEYS[1]  the workers' sorted set   <prefix>queue:{turns}:workers
  ARGV[1]  this worker's consumer name
  ARGV[2]  forgetAfterMs: how long a silent worker stays in the set

  Returns the time it was scored with (ms)
]]
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. (now - tonumber(ARGV[2])))
return now
