--[[
  How many workers said they were alive within the last `withinMs`, by Redis' own clock.

  KEYS[1]  the workers' sorted set   <prefix>queue:{turns}:workers
  ARGV[1]  withinMs

  Returns the count
]]
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
return redis.call('ZCOUNT', KEYS[1], now - tonumber(ARGV[1]), '+inf')
