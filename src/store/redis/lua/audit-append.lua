--[[
  Appends audit records to the shared audit trail, only if they continue the trail's current
  head (compare-and-set), and caps the stream. Every server process on one Redis appends here,
  so the chain stays linear: a process whose view of the head is stale gets the fresh head back
  and re-chains its records after it. Hashes are computed in Node (sha256; Lua has only sha1).

  KEYS[1]  trail head     <prefix>audit:{trail}:head   hash: `hash` and `seq` of the last record
  KEYS[2]  trail stream   <prefix>audit:{trail}        stream: one entry per record, field `record`

  ARGV[1]  the head the records continue: the `prev` of the first record (64 zeros: none yet)
  ARGV[2]  the stream's cap (XADD MAXLEN ~), 0 for none
  ARGV[3]  `seq` of the last record
  ARGV[4]  `hash` of the last record
  ARGV[5…] the records, as JSON, in order

  Returns
    {1, entryId}        appended; entryId is the stream id of the last record
    {0, hash, seq}      the head moved on: nothing was written; chain after this head and retry
]]
local head = redis.call('HMGET', KEYS[1], 'hash', 'seq')
local hash = head[1] or string.rep('0', 64)
local seq = head[2] or '0'
if hash ~= ARGV[1] then
  return {0, hash, seq}
end

local cap = tonumber(ARGV[2])
local entryId
for i = 5, #ARGV do
  if cap > 0 then
    entryId = redis.call('XADD', KEYS[2], 'MAXLEN', '~', cap, '*', 'record', ARGV[i])
  else
    entryId = redis.call('XADD', KEYS[2], '*', 'record', ARGV[i])
  end
end
redis.call('HSET', KEYS[1], 'hash', ARGV[4], 'seq', ARGV[3])
return {1, entryId}
