--[[
  Removes a task id from index sorted sets once its task is gone (expired). The task key lives on
  another slot, so Node checks that it is gone first; this script only refuses to remove an entry
  scored above the bound Node gives, which a newer task with the same id wrote in the meantime.

  KEYS[1…] the index sorted sets to clean (all on the {idx} slot)

  ARGV[1]  taskId
  ARGV[2]  the highest score to remove: the score `list` saw, or the time sweep's task expired

  Returns the number of entries removed
]]
local removed = 0
for i = 1, #KEYS do
  local score = redis.call('ZSCORE', KEYS[i], ARGV[1])
  if score and tonumber(score) <= tonumber(ARGV[2]) then
    removed = removed + redis.call('ZREM', KEYS[i], ARGV[1])
  end
end
return removed
