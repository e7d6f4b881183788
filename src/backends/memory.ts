/** The embedded default: tasks and events in this process's memory, turns run inline. */
import type { Logger } from 'pino'
import type { Config } from '../config.js'
import { InlineDispatcher } from '../engine/inline-dispatcher.js'
import { MemoryActiveTasks } from '../store/memory/active-tasks.js'
import { MemoryEventLog } from '../store/memory/event-log.js'
import { MemoryTaskStore } from '../store/memory/task-store.js'
import type { Backend } from './backend.js'

/** At most one log line a minute about refused tasks: a full store may refuse thousands. */
const REFUSAL_LOG_INTERVAL_MS = 60_000

export function memoryBackend(config: Config, log: Logger): Backend {
  const events = new MemoryEventLog()
  let refusalLoggedAt = -Infinity
  const tasks = new MemoryTaskStore(events, {
    terminalTtlMs: config.TASK_RETENTION_SECONDS * 1000,
    maxTasks: config.MAX_TASKS_IN_MEMORY,
    onFull: ({ outcome, maxTasks }) => {
      if (outcome === 'forgot-ended') {
        log.warn(
          { store: { maxTasks } },
          'the task store is full (MAX_TASKS_IN_MEMORY): ended tasks now make room for new ones before TASK_RETENTION_SECONDS is up; raise it, or set REDIS_URL',
        )
      } else if (Date.now() - refusalLoggedAt >= REFUSAL_LOG_INTERVAL_MS) {
        refusalLoggedAt = Date.now()
        log.error(
          { store: { maxTasks } },
          'the task store is full of tasks that have not ended (MAX_TASKS_IN_MEMORY): new tasks are refused with 503',
        )
      }
    },
  })
  return {
    tasks,
    events,
    activeTasks: new MemoryActiveTasks(),
    dispatcher: (runner) => new InlineDispatcher(runner),
    heldTasks: () => tasks.fill(),
    unreachable: () => Promise.resolve([]),
    close: async () => tasks.close(),
  }
}
