--[[
  Marks turns done: acknowledges the entries and deletes them, so the queue stream holds only
  turns that are waiting or running (nothing grows with the number of turns ever run).

  KEYS[1]  the queue stream     <prefix>queue:{turns}
  ARGV[1]  the consumer group
  ARGV[2…] entry ids

  Returns the number of entries acknowledged
]]
local acked = redis.call('XACK', KEYS[1], ARGV[1], unpack(ARGV, 2))
redis.call('XDEL', KEYS[1], unpack(ARGV, 2))
return acked
