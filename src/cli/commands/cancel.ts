/** `a2a cancel <url> <taskId>`: cancels a task that has not finished. */
import { processIo } from '../agent/command.js'
import type { Io } from '../agent/command.js'
import { EXIT_HELP } from '../agent/exit-codes.js'
import { COMMON_HELP } from '../agent/options.js'
import { runTaskCommand } from '../agent/task-command.js'

export const summary = 'cancel a task'

const HELP = `Usage: a2a cancel <url> <taskId> [options]

Asks the agent to cancel the task and shows the task it answers with (--json: the task). A task
that has already finished cannot be canceled: the agent's error is printed (exit 2).

${COMMON_HELP}
${EXIT_HELP}`

export function run(argv: string[], io: Io = processIo()): Promise<number> {
  return runTaskCommand('cancel', HELP, (client, taskId) => client.cancel(taskId), argv, io)
}
