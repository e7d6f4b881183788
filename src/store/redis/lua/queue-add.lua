--[[
  Queues a turn and, when the queuing process runs turns too and has free slots, hands it the
  oldest waiting turns at once, as its worker's read would (XREADGROUP as that consumer, so each
  taken turn is pending under it and reclaimed if it dies). With no backlog that is the turn just
  added: the dispatching process runs it without a wake-up read and without reading the task it
  has just written. With a backlog it takes the older turns first; the queue stays in order.

  KEYS[1]  the queue stream     <prefix>queue:{turns}
  ARGV[1]  the consumer group
  ARGV[2]  the consumer that takes turns
  ARGV[3]  how many turns it takes at most (0: it only queues)
  ARGV[4…] the new entry's fields: field, value, …

  Returns {id, taken}: the new entry's id, and the entries taken as XREADGROUP gives them
  ({{id, {field, value, …}}, …}), empty when none (also when the group is missing: the
  worker's own read creates it)
]]
local id = redis.call('XADD', KEYS[1], '*', unpack(ARGV, 4))
if tonumber(ARGV[3]) < 1 then
  return {id, {}}
end
local read = redis.pcall('XREADGROUP', 'GROUP', ARGV[1], ARGV[2], 'COUNT', ARGV[3],
  'STREAMS', KEYS[1], '>')
if type(read) ~= 'table' or read.err or not read[1] then
  return {id, {}}
end
return {id, read[1][2]}
