--[[
  Records a task in the list indexes after create or apply wrote it (keys.ts says why this is a
  second step). Idempotent and convergent: ZADD GT keeps the newest score when two writes of one
  task are indexed out of order, and adds the entry when it is missing.

  KEYS[1]  retention records    <prefix>tasks:{idx}:expiring
  KEYS[2…] the indexes to record the task in: <prefix>tasks:{idx}:all, …:context:<contextId>
           and, for a task with an owner, …:owner:<owner>

  ARGV[1]  taskId
  ARGV[2]  the task's updatedAt in ms (the index score)
  ARGV[3]  when the task's keys expire, in ms; '' when they do not
  ARGV[4]  the task's retention record (JSON; see task-index.ts), used when ARGV[3] is set

  Returns 1
]]
for i = 2, #KEYS do
  redis.call('ZADD', KEYS[i], 'GT', ARGV[2], ARGV[1])
end
if ARGV[3] ~= '' then
  redis.call('ZADD', KEYS[1], 'NX', ARGV[3], ARGV[4])
end
return 1
