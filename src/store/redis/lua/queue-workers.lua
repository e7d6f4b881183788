--[[
  The workers that said they were alive within the last `withinMs`, by Redis' own clock, and
  the skills each runs.

  KEYS[1]  the workers' sorted set   <prefix>queue:{turns}:workers
  KEYS[2]  the workers' skills       <prefix>queue:{turns}:worker-skills
  ARGV[1]  withinMs

  Returns name, skill ids (space-separated; false when unknown), name, skill ids, …
]]
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local names = redis.call('ZRANGEBYSCORE', KEYS[1], now - tonumber(ARGV[1]), '+inf')
local reply = {}
for _, name in ipairs(names) do
  reply[#reply + 1] = name
  reply[#reply + 1] = redis.call('HGET', KEYS[2], name)
end
return reply
