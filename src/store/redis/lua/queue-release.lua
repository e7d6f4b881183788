--[[
  Hands a turn back to the queue (a worker shutting down): if the entry is still this
  consumer's, it is acknowledged, deleted and added again at the end of the stream, so that any
  worker can take it at once. The new entry carries the attempts already used up, so releasing
  a turn does not reset its attempt budget.

  KEYS[1]  the queue stream     <prefix>queue:{turns}
  ARGV[1]  the consumer group
  ARGV[2]  this consumer's name
  ARGV[3]  the entry id
  ARGV[4…] the new entry's fields: field, value, …

  Returns the new entry's id, or false when the entry is no longer this consumer's
]]
local owned = redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[3], ARGV[3], 1, ARGV[2])
if #owned == 0 then
  return false
end
redis.call('XACK', KEYS[1], ARGV[1], ARGV[3])
redis.call('XDEL', KEYS[1], ARGV[3])
return redis.call('XADD', KEYS[1], '*', unpack(ARGV, 4))
