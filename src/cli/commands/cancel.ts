/** `a2a cancel <url> <taskId>`: cancels a task that has not finished. */
import { runCommand, processIo } from '../agent/command.js'
import type { Io } from '../agent/command.js'
import { EXIT, EXIT_HELP } from '../agent/exit-codes.js'
import { COMMON_HELP, connect } from '../agent/options.js'
import { taskLines } from '../agent/render.js'

export const summary = 'cancel a task'

const HELP = `Usage: a2a cancel <url> <taskId> [options]

Asks the agent to cancel the task and shows the task it answers with (--json: the task). A task
that has already finished cannot be canceled: the agent's error is printed (exit 2).

${COMMON_HELP}
${EXIT_HELP}`

export function run(argv: string[], io: Io = processIo()): Promise<number> {
  return runCommand(
    {
      name: 'cancel',
      help: HELP,
      options: {},
      positionals: 1,
      async run(_parsed, connection, [taskId]) {
        const client = await connect(connection)
        const task = await client.cancel(taskId!)
        io.out.write(
          connection.json
            ? `${JSON.stringify(task, null, 2)}\n`
            : `${taskLines(task).join('\n')}\n`,
        )
        return EXIT.ok
      },
    },
    argv,
    io,
  )
}
