--[[
  Applies one change to a task and appends its event, as one atomic step (TaskStore.apply).
  It is src/domain/task-change.ts `applyChange` in Lua; the contract suite holds both to it.

  Node prepares every piece of JSON, and this script only splices them: it never decodes or
  re-encodes user content, because Redis 7.0's cjson encodes an empty array as {} and rounds
  numbers to 14 digits. Arrays are stored as JSON text (see task-codec.ts) and grow by splicing
  elements before their closing bracket.

  The state-machine rule is checked here, against the state stored now: Node passes the states
  the change may apply from (predecessorsOf(next) narrowed by the change's `from`, or the open
  states for an artifact), computed from src/domain/state-machine.ts so the table has one source.

  KEYS[1]  task hash            <prefix>task:{<taskId>}
  KEYS[2]  task event stream    <prefix>task:{<taskId>}:events

  ARGV[1]  'status' or 'artifact'
  ARGV[2]  the states the change may apply from, space-separated
  ARGV[3]  the task's new updatedAt
  ARGV[4]  the event as JSON, without contextId (this script adds the stored one)
  ARGV[5]  seconds until both keys expire, 0 for never (non-zero when the change ends the task)
  status change:
    ARGV[6]  the next state
    ARGV[7]  the new status, JSON
    ARGV[8]  its transitions entry (the status without its message), JSON
    ARGV[9]  messages to append to the history, as JSON array elements ('' for none)
  artifact change:
    ARGV[6]  artifactId
    ARGV[7]  artifactId as a JSON string
    ARGV[8]  the artifact without its parts, JSON
    ARGV[9]  its parts, as JSON array elements
    ARGV[10] '1' to append the parts to the artifact with this id, '0' to replace it

  Returns
    {1, eventId, {field, value, …}}   applied: the event's stream id and the new task hash
    {-1}                              no such task
    {-2, state}                       the current state refuses the change; nothing was written
]]
local task, events = KEYS[1], KEYS[2]

local state = redis.call('HGET', task, 'state')
if not state then
  return {-1}
end
local allowed = false
for from in string.gmatch(ARGV[2], '%S+') do
  if from == state then
    allowed = true
  end
end
if not allowed then
  return {-2, state}
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

if ARGV[1] == 'status' then
  local nextState = ARGV[6]
  if nextState ~= state then
    local transitions = append(redis.call('HGET', task, 'transitions'), ARGV[8])
    redis.call('HSET', task, 'transitions', transitions)
  end
  if ARGV[9] ~= '' then
    redis.call('HSET', task, 'history', append(redis.call('HGET', task, 'history'), ARGV[9]))
  end
  redis.call('HSET', task, 'state', nextState, 'status', ARGV[7])
else
  local artifactField, partsField = 'artifact:' .. ARGV[6], 'parts:' .. ARGV[6]
  local parts = redis.call('HGET', task, partsField)
  if not parts then
    local artifacts = append(redis.call('HGET', task, 'artifacts'), ARGV[7])
    redis.call('HSET', task, 'artifacts', artifacts,
      artifactField, ARGV[8], partsField, '[' .. ARGV[9] .. ']')
  elseif ARGV[10] == '1' then
    redis.call('HSET', task, partsField, append(parts, ARGV[9]))
  else
    redis.call('HSET', task, artifactField, ARGV[8], partsField, '[' .. ARGV[9] .. ']')
  end
end
redis.call('HSET', task, 'updatedAt', ARGV[3])

local contextId = redis.call('HGET', task, 'contextIdJson')
local event = '{"contextId":' .. contextId .. ',' .. string.sub(ARGV[4], 2)
local eventId = redis.call('XADD', events, '*', 'event', event)

local ttl = tonumber(ARGV[5])
if ttl > 0 then
  redis.call('EXPIRE', task, ttl)
  redis.call('EXPIRE', events, ttl)
end
return {1, eventId, redis.call('HGETALL', task)}
