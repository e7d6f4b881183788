/**
 * The engine without HTTP, for tests: a TaskService whose turns run in this process
 * (InlineDispatcher), on the memory store unless a test brings its own.
 */
import { pino } from 'pino'
import type { Logger } from 'pino'
import { InlineDispatcher } from '../../src/engine/inline-dispatcher.js'
import { Runner } from '../../src/engine/runner.js'
import type { TaskServiceOptions } from '../../src/engine/task-service.js'
import { TaskService } from '../../src/engine/task-service.js'
import { SkillRegistry } from '../../src/skills/registry.js'
import type { Skill } from '../../src/skills/skill.js'
import type { EventLog } from '../../src/store/event-log.js'
import { MemoryEventLog } from '../../src/store/memory/event-log.js'
import { MemoryTaskStore } from '../../src/store/memory/task-store.js'
import type { TaskStore } from '../../src/store/task-store.js'

export interface InlineEngineOptions {
  /** The stores; default: a fresh memory store. */
  store?: { tasks: TaskStore; events: EventLog }
  /** SKILL_TIMEOUT_MS; default 0 (none). */
  skillTimeoutMs?: number
  /** Default: silent. */
  log?: Logger
  outlivingAfterMs?: number
  /** More TaskService options (limits default to small ones). */
  service?: Partial<TaskServiceOptions>
}

export function inlineEngine(skills: readonly Skill[], options: InlineEngineOptions = {}) {
  const memoryEvents = new MemoryEventLog()
  const { tasks, events } = options.store ?? {
    tasks: new MemoryTaskStore(memoryEvents),
    events: memoryEvents,
  }
  const registry = new SkillRegistry(skills)
  const log = options.log ?? pino({ level: 'silent' })
  const runner = new Runner({
    store: tasks,
    skills: registry,
    log,
    skillTimeoutMs: options.skillTimeoutMs ?? 0,
    ...(options.outlivingAfterMs !== undefined && { outlivingAfterMs: options.outlivingAfterMs }),
  })
  const dispatcher = new InlineDispatcher(runner)
  const service = new TaskService({
    store: tasks,
    events,
    skills: registry,
    dispatcher,
    limits: { maxParts: 10, maxTextLength: 1000, maxFileBytes: 1000 },
    log,
    ...options.service,
  })
  return { service, runner, dispatcher, store: tasks, events }
}
