/** `a2a get <url> <taskId>`: the task as it is now. */
import { processIo } from '../agent/command.js'
import type { Io } from '../agent/command.js'
import { EXIT_HELP } from '../agent/exit-codes.js'
import { COMMON_HELP } from '../agent/options.js'
import { runTaskCommand } from '../agent/task-command.js'

export const summary = 'show a task: its state, status message and artifacts'

const HELP = `Usage: a2a get <url> <taskId> [options]

Shows the task as it is now: its artifacts and its state with the status message (--json: the
task). Exits 0 whatever the task's state, once it was read.

${COMMON_HELP}
${EXIT_HELP}`

export function run(argv: string[], io: Io = processIo()): Promise<number> {
  return runTaskCommand('get', HELP, (client, taskId) => client.get(taskId), argv, io)
}
