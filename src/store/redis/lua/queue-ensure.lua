--[[
  Queues a turn for a task unless one is queued already: the recovery for a task whose create
  was stored but whose turn never reached the queue (Redis went away between the two, which
  are on different slots). The stream holds only waiting and running turns (done ones are
  deleted), so an entry naming the task means its turn is still to come or still running.
  Scans the stream in pages: it runs only for a retried send that finds its task still
  submitted, and the stream holds only the turns in flight.

  KEYS[1]  the queue stream     <prefix>queue:{turns}
  ARGV[1]  the task id
  ARGV[2…] the new entry's fields: field, value, … (the first pair is task, ARGV[1])

  Returns {0, id} when an entry for the task was there already, {1, id} when it added one
]]
local start = '-'
while true do
  local page = redis.call('XRANGE', KEYS[1], start, '+', 'COUNT', 100)
  for _, entry in ipairs(page) do
    local fields = entry[2]
    for i = 1, #fields, 2 do
      if fields[i] == 'task' and fields[i + 1] == ARGV[1] then
        return {0, entry[1]}
      end
    end
  end
  if #page < 100 then
    break
  end
  start = '(' .. page[#page][1]
end
return {1, redis.call('XADD', KEYS[1], '*', unpack(ARGV, 2))}
