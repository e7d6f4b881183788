--[[
  Records tasks in the list indexes after create or apply wrote them (keys.ts says why this is
  a second step): the tasks a process wrote in one turn of its event loop, in one call.
  Idempotent and convergent: ZADD GT keeps the newest score when two writes of one task are
  indexed out of order, and adds the entry when it is missing; the same for the task's retention
  record, whose score is when sweep looks at it (the later write's time wins).

  KEYS[1]  retention records    <prefix>tasks:{idx}:expiring
  KEYS[2]  waiting tasks        <prefix>tasks:{idx}:waiting
  KEYS[3…] each task's indexes, in the order of the tasks below: <prefix>tasks:{idx}:all,
           …:context:<contextId> and, for a task with an owner, …:owner:<owner>

  ARGV     six per task:
           taskId
           the task's updatedAt in ms (the index score)
           how many of KEYS are its indexes
           when sweep should look at the task, in ms ('' when retention is off): a terminal
           task's expiry, an open task's next look (see task-index.ts)
           the task's retention record (JSON; see task-index.ts)
           its wait on the caller: since when, in ms (it waits now; GT, so a later wait's
           time wins over an earlier one indexed late); '-' (it has ended: no longer
           waiting); '' (neither: left as it is)

  Returns the number of tasks recorded
]]
local key = 3
local tasks = 0
for i = 1, #ARGV, 6 do
  local taskId, score, count = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2])
  for k = key, key + count - 1 do
    redis.call('ZADD', KEYS[k], 'GT', score, taskId)
  end
  key = key + count
  if ARGV[i + 3] ~= '' then
    redis.call('ZADD', KEYS[1], 'GT', ARGV[i + 3], ARGV[i + 4])
  end
  local wait = ARGV[i + 5]
  if wait == '-' then
    redis.call('ZREM', KEYS[2], taskId)
  elseif wait ~= '' then
    redis.call('ZADD', KEYS[2], 'GT', wait, taskId)
  end
  tasks = tasks + 1
end
return tasks
