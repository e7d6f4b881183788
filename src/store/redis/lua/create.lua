--[[
  Creates a task if its id is free, together with its first event (TaskStore.create).

  KEYS[1]  task hash            <prefix>task:{<taskId>}
  KEYS[2]  task event stream    <prefix>task:{<taskId>}:events

  ARGV[1]  the first event, as JSON (stored in the stream entry's `event` field)
  ARGV[2]  seconds until both keys expire, 0 for never (non-zero only for a task created terminal)
  ARGV[3…] the task hash: field, value, field, value, …

  It publishes the first event's id on the channel named like the event stream's key, for any
  process already following the task id (src/store/redis/event-feed.ts).

  Returns
    {1, eventId}                 created
    {0, {field, value, …}}       the id is taken: the stored task's hash; nothing was written

  A stream left without its task (it cannot happen through these scripts, but a key can be
  deleted by hand) is dropped first, so a new task's log starts with its own first event.
]]
local existing = redis.call('HGETALL', KEYS[1])
if #existing > 0 then
  return {0, existing}
end

for i = 3, #ARGV, 2 do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
end
redis.call('DEL', KEYS[2])
local eventId = redis.call('XADD', KEYS[2], '*', 'event', ARGV[1])

local ttl = tonumber(ARGV[2])
if ttl > 0 then
  redis.call('EXPIRE', KEYS[1], ttl)
  redis.call('EXPIRE', KEYS[2], ttl)
end
redis.call('PUBLISH', KEYS[2], eventId)
return {1, eventId}
