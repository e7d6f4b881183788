/**
 * The Lua scripts (lua/*.lua, one per atomic operation), registered on the caller's connection
 * under versioned names: a changed script gets a new name, so a process never runs a stale body
 * cached under the old one. This file is also the one place where the scripts' reply codes and
 * failures become errors.
 */
import { readFileSync } from 'node:fs'
import type { Redis } from 'ioredis'
import { TaskNotFoundError } from '../../domain/errors.js'
import { TaskState } from '../../domain/model.js'
import type { TaskFields } from './task-codec.js'

/** Script file → the command name it is registered under. */
export const SCRIPT_NAMES = {
  create: 'a2aCreateV1',
  apply: 'a2aApplyV2',
  index: 'a2aIndexV3',
  unindex: 'a2aUnindexV1',
  admit: 'a2aAdmitV1',
} as const

/** The work queue's scripts (work-queue.ts), registered by the queue's users only. */
export const QUEUE_SCRIPT_NAMES = {
  'queue-ack': 'a2aQueueAckV1',
  'queue-release': 'a2aQueueReleaseV1',
  'queue-heartbeat': 'a2aQueueHeartbeatV1',
  'queue-forget-consumer': 'a2aQueueForgetConsumerV1',
  'queue-ensure': 'a2aQueueEnsureV1',
  'queue-add': 'a2aQueueAddV1',
  'queue-worker-seen': 'a2aQueueWorkerSeenV1',
  'queue-workers': 'a2aQueueWorkersV1',
  'queue-worker-gone': 'a2aQueueWorkerGoneV1',
} as const

type TaskScriptKind = keyof typeof SCRIPT_NAMES
type QueueScriptKind = keyof typeof QUEUE_SCRIPT_NAMES
type ScriptKind = TaskScriptKind | QueueScriptKind
const NAMES: Record<ScriptKind, string> = { ...SCRIPT_NAMES, ...QUEUE_SCRIPT_NAMES }

/** Runs one script with its KEYS and ARGV. */
export type ScriptRunner = (keys: readonly string[], args: readonly string[]) => Promise<unknown>
export type TaskScripts = Record<TaskScriptKind, ScriptRunner>
export type QueueScripts = Record<QueueScriptKind, ScriptRunner>

// The build copies only .ts files: dist/store/redis/lua/*.lua must be copied beside this module.
const sources = new Map<ScriptKind, string>()
const source = (kind: ScriptKind): string => {
  let lua = sources.get(kind)
  if (lua === undefined) {
    lua = readFileSync(new URL(`./lua/${kind}.lua`, import.meta.url), 'utf8')
    sources.set(kind, lua)
  }
  return lua
}

/** Thrown when Redis refuses a script or a script answers something it never should. */
export class StoreScriptError extends Error {
  constructor(
    readonly script: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`Redis script ${script} failed: ${detail}`, options)
    this.name = 'StoreScriptError'
  }
}

/** Registers the task scripts on `redis` (ioredis runs them by EVALSHA, loading them when missing). */
export function defineTaskScripts(redis: Redis): TaskScripts {
  const runner = scriptRunner(redis)
  return {
    create: runner('create'),
    apply: runner('apply'),
    index: runner('index'),
    unindex: runner('unindex'),
    admit: runner('admit'),
  }
}

/** Registers the work queue's scripts on `redis`. */
export function defineQueueScripts(redis: Redis): QueueScripts {
  const runner = scriptRunner(redis)
  return {
    'queue-ack': runner('queue-ack'),
    'queue-release': runner('queue-release'),
    'queue-heartbeat': runner('queue-heartbeat'),
    'queue-forget-consumer': runner('queue-forget-consumer'),
    'queue-ensure': runner('queue-ensure'),
    'queue-add': runner('queue-add'),
    'queue-worker-seen': runner('queue-worker-seen'),
    'queue-workers': runner('queue-workers'),
    'queue-worker-gone': runner('queue-worker-gone'),
  }
}

function scriptRunner(redis: Redis) {
  return (kind: ScriptKind): ScriptRunner => {
    const name = NAMES[kind]
    // No numberOfKeys: every call passes its key count first, as index/unindex vary it.
    redis.defineCommand(name, { lua: source(kind) })
    return async (keys, args) => {
      const command = (redis as unknown as Record<string, ScriptCommand>)[name]!
      try {
        return await command.call(redis, keys.length, ...keys, ...args)
      } catch (error) {
        throw new StoreScriptError(name, error instanceof Error ? error.message : String(error), {
          cause: error,
        })
      }
    }
  }
}

type ScriptCommand = (this: Redis, ...args: (string | number)[]) => Promise<unknown>

export type CreateReply =
  { created: true; eventId: string } | { created: false; fields: TaskFields }

/** Reads create.lua's reply. */
export function createReply(reply: unknown): CreateReply {
  const [code, detail] = asArray(SCRIPT_NAMES.create, reply)
  if (code === 1 && typeof detail === 'string') return { created: true, eventId: detail }
  if (code === 0) return { created: false, fields: hashFields(SCRIPT_NAMES.create, detail) }
  throw unexpected(SCRIPT_NAMES.create, reply)
}

/** What apply.lua did with each change: its event's id, or the state that refused it. */
export type ChangeOutcome = { eventId: string } | { refusedBy: TaskState }

/** Reads apply.lua's reply; a missing task becomes the error TaskStore.apply promises. */
export function applyReply(
  reply: unknown,
  taskId: string,
): { outcomes: ChangeOutcome[]; fields: TaskFields } {
  const [code, outcomes, fields] = asArray(SCRIPT_NAMES.apply, reply)
  if (code === -1) throw new TaskNotFoundError(taskId)
  if (code !== 1) throw unexpected(SCRIPT_NAMES.apply, reply)
  return {
    outcomes: asArray(SCRIPT_NAMES.apply, outcomes).map((outcome) => {
      if (typeof outcome !== 'string') throw unexpected(SCRIPT_NAMES.apply, reply)
      if (!outcome.startsWith('!')) return { eventId: outcome }
      const state = TaskState.safeParse(outcome.slice(1))
      if (!state.success) throw unexpected(SCRIPT_NAMES.apply, reply)
      return { refusedBy: state.data }
    }),
    fields: hashFields(SCRIPT_NAMES.apply, fields),
  }
}

/**
 * A hash as HGETALL gives it (field, value, …), as a Map: a task's field names include its
 * artifact ids, and an object keyed by names never seen before costs V8 a new shape per task.
 */
export function hashFields(script: string, flat: unknown): TaskFields {
  const items = asArray(script, flat)
  const fields = new Map<string, string>()
  for (let i = 0; i + 1 < items.length; i += 2) fields.set(String(items[i]), String(items[i + 1]))
  return fields
}

function asArray(script: string, reply: unknown): unknown[] {
  if (!Array.isArray(reply)) throw unexpected(script, reply)
  return reply
}

const unexpected = (script: string, reply: unknown) =>
  new StoreScriptError(script, `unexpected reply ${JSON.stringify(reply)?.slice(0, 200)}`)
