--[[
  Deletes a consumer from the group when it owns no entry. Every worker process joins under a
  fresh name, so dead ones would pile up in the group; a live consumer deleted here is created
  again by its next read, and an entry it owned is never dropped (DELCONSUMER would drop it).

  KEYS[1]  the queue stream     <prefix>queue:{turns}
  ARGV[1]  the consumer group
  ARGV[2]  the consumer's name

  Returns 1 when deleted, 0 when it still owns entries
]]
if #redis.call('XPENDING', KEYS[1], ARGV[1], '-', '+', 1, ARGV[2]) > 0 then
  return 0
end
redis.call('XGROUP', 'DELCONSUMER', KEYS[1], ARGV[1], ARGV[2])
return 1
