/** When an A2A 0.2+ send is answered with a message rather than a task. */
import type { Task } from '../../domain/model.js'

/**
 * The skill replied directly on the task's first turn and delivered no artifact: the answer is
 * the reply message alone. (The engine still keeps the exchange as a completed task.)
 */
export const isDirectReply = (task: Task): boolean =>
  task.status.directReply === true &&
  task.status.message !== undefined &&
  task.artifacts.length === 0 &&
  task.history.filter((message) => message.role === 'user').length === 1
