/** The embedded default: tasks and events in this process's memory, turns run inline. */
import type { Config } from '../config.js'
import { InlineDispatcher } from '../engine/inline-dispatcher.js'
import { MemoryActiveTasks } from '../store/memory/active-tasks.js'
import { MemoryEventLog } from '../store/memory/event-log.js'
import { MemoryTaskStore } from '../store/memory/task-store.js'
import type { Backend } from './backend.js'

export function memoryBackend(config: Config): Backend {
  const events = new MemoryEventLog()
  const tasks = new MemoryTaskStore(events, { terminalTtlMs: config.TASK_RETENTION_SECONDS * 1000 })
  return {
    tasks,
    events,
    activeTasks: new MemoryActiveTasks(),
    dispatcher: (runner) => new InlineDispatcher(runner),
    unreachable: () => Promise.resolve([]),
    close: async () => tasks.close(),
  }
}
