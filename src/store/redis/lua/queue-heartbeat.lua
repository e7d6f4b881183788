--[[
  A running worker's heartbeat: resets the idle time of the entries it still owns (XCLAIM with
  JUSTID, which does not count as a delivery), so no other worker reclaims a turn that is alive.
  An entry another worker has meanwhile reclaimed is left alone: XCLAIM alone would take it back.

  KEYS[1]  the queue stream     <prefix>queue:{turns}
  ARGV[1]  the consumer group
  ARGV[2]  this consumer's name
  ARGV[3…] entry ids of the turns it runs

  Returns the ids it still owns
]]
local kept = {}
for i = 3, #ARGV do
  local owned = redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[i], ARGV[i], 1, ARGV[2])
  if #owned > 0 then
    redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], 0, ARGV[i], 'JUSTID')
    kept[#kept + 1] = ARGV[i]
  end
end
return kept
