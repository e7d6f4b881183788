--[[
  Applies changes to a task, in order, and appends an event for each, as one atomic step
  (TaskStore.apply and applyAll). It is src/domain/task-change.ts `applyChange` in Lua; the
  contract suite holds both to it.

  Node prepares every piece of JSON, and this script only splices them: it never decodes or
  re-encodes user content, because Redis 7.0's cjson encodes an empty array as {} and rounds
  numbers to 14 digits. Arrays are stored as JSON text (see task-codec.ts) and grow by splicing
  elements before their closing bracket.

  The state-machine rule is checked here, against the state each change finds (the stored one,
  then what the previous changes left): Node passes the states a change may apply from
  (predecessorsOf(next) narrowed by the change's `from`, or the open states for an artifact),
  computed from src/domain/state-machine.ts so the table has one source. A refused change is
  skipped; the ones after it still apply.

  KEYS[1]  task hash            <prefix>task:{<taskId>}
  KEYS[2]  task event stream    <prefix>task:{<taskId>}:events

  ARGV[1]  how many changes follow; each takes the next 10 arguments, a1 … a10:
  a1  'status' or 'artifact'
  a2  the states the change may apply from, space-separated
  a3  the task's new updatedAt
  a4  the event as JSON, without contextId (this script adds the stored one)
  a5  seconds until both keys expire, 0 for never (non-zero when the change ends the task)
  status change:
    a6  the next state
    a7  the new status, JSON
    a8  its transitions entry (the status without its message), JSON
    a9  messages to append to the history, as JSON array elements ('' for none)
    a10 '1' when the change ends the task (its event stream is then compacted, see below)
  artifact change:
    a6  artifactId
    a7  artifactId as a JSON string
    a8  the artifact without its parts, JSON
    a9  its parts, as JSON array elements
    a10 '1' to append the parts to the artifact with this id, '0' to replace it

  When it appended any event, it publishes the last one's id on the channel named like the
  event stream's key, for the processes following the task (src/store/redis/event-feed.ts).

  Returns
    {1, {outcome, …}, {field, value, …}}   one outcome per change: its event's stream id, or
                                           '!' .. state when that state refused it; then the
                                           task hash after all of them
    {-1}                                   no such task; nothing was written
]]
local task, events = KEYS[1], KEYS[2]

local state = redis.call('HGET', task, 'state')
if not state then
  return {-1}
end

local function append(array, elements)
  if elements == '' then
    return array
  end
  if array == '[]' then
    return '[' .. elements .. ']'
  end
  return string.sub(array, 1, -2) .. ',' .. elements .. ']'
end

local function allows(from)
  for candidate in string.gmatch(from, '%S+') do
    if candidate == state then
      return true
    end
  end
  return false
end

local contextId = redis.call('HGET', task, 'contextIdJson')
local outcomes = {}
local ttl = 0
local lastEventId = nil
local ended = false
for i = 0, tonumber(ARGV[1]) - 1 do
  local a = function(n) return ARGV[1 + i * 10 + n] end
  if not allows(a(2)) then
    outcomes[#outcomes + 1] = '!' .. state
  else
    if a(1) == 'status' then
      local nextState = a(6)
      if nextState ~= state then
        redis.call('HSET', task, 'transitions', append(redis.call('HGET', task, 'transitions'), a(8)))
      end
      if a(9) ~= '' then
        redis.call('HSET', task, 'history', append(redis.call('HGET', task, 'history'), a(9)))
      end
      redis.call('HSET', task, 'state', nextState, 'status', a(7))
      state = nextState
      ended = ended or a(10) == '1'
    else
      local artifactField, partsField = 'artifact:' .. a(6), 'parts:' .. a(6)
      local parts = redis.call('HGET', task, partsField)
      if not parts then
        local artifacts = append(redis.call('HGET', task, 'artifacts'), a(7))
        redis.call('HSET', task, 'artifacts', artifacts,
          artifactField, a(8), partsField, '[' .. a(9) .. ']')
      elseif a(10) == '1' then
        redis.call('HSET', task, partsField, append(parts, a(9)))
      else
        redis.call('HSET', task, artifactField, a(8), partsField, '[' .. a(9) .. ']')
      end
    end
    redis.call('HSET', task, 'updatedAt', a(3))
    local event = '{"contextId":' .. contextId .. ',' .. string.sub(a(4), 2)
    lastEventId = redis.call('XADD', events, '*', 'event', event)
    outcomes[#outcomes + 1] = lastEventId
    ttl = math.max(ttl, tonumber(a(5)))
  end
end

-- Redis allocates a stream's newest node 4 KB up front (stream-node-max-bytes) and keeps it
-- so until the node is full, which a task's few events never make it. The ended task's stream
-- takes no more events: it is loaded again from its own dump, which allocates what the entries
-- need (an echo task's stream: 4.8 KB before, 1.9 KB after), with entries and ids as they
-- were. Only a small stream: in a large one the 4 KB are little, and copying it costs more.
if ended and redis.call('MEMORY', 'USAGE', events) <= 65536 then
  redis.call('RESTORE', events, 0, redis.call('DUMP', events), 'REPLACE')
end
if ttl > 0 then
  redis.call('EXPIRE', task, ttl)
  redis.call('EXPIRE', events, ttl)
end
if lastEventId then
  redis.call('PUBLISH', events, lastEventId)
end
return {1, outcomes, redis.call('HGETALL', task)}
