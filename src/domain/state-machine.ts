/**
 * The task lifecycle. One table says which state may follow which; the stores check it
 * atomically (the Redis store passes the allowed predecessors into its Lua script).
 */
import type { TaskState } from './model.js'

const NEXT: Record<TaskState, readonly TaskState[]> = {
  submitted: ['working', 'failed', 'canceled', 'rejected'],
  // working → working carries progress messages.
  // A skill may look at the work and then decline it: working → rejected.
  working: [
    'working',
    'input-required',
    'auth-required',
    'completed',
    'failed',
    'canceled',
    'rejected',
  ],
  'input-required': ['working', 'failed', 'canceled'],
  'auth-required': ['working', 'failed', 'canceled'],
  completed: [],
  failed: [],
  canceled: [],
  rejected: [],
}

export const TERMINAL_STATES: readonly TaskState[] = ['completed', 'failed', 'canceled', 'rejected']
export const INTERRUPTED_STATES: readonly TaskState[] = ['input-required', 'auth-required']

export const isTerminal = (state: TaskState): boolean => TERMINAL_STATES.includes(state)

/** Terminal or waiting on the caller: where a blocking send answers and a stream ends. */
export const isFinal = (state: TaskState): boolean =>
  isTerminal(state) || INTERRUPTED_STATES.includes(state)

export const canTransition = (from: TaskState, to: TaskState): boolean => NEXT[from].includes(to)

/** The states from which `to` may be entered. */
export const predecessorsOf = (to: TaskState): TaskState[] =>
  (Object.keys(NEXT) as TaskState[]).filter((from) => NEXT[from].includes(to))

/** The states in which artifacts may still be added. */
export const OPEN_STATES: readonly TaskState[] = (Object.keys(NEXT) as TaskState[]).filter(
  (state) => !isTerminal(state),
)
