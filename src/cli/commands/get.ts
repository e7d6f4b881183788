/** `a2a get <url> <taskId>`: the task as it is now. */
import { runCommand, processIo } from '../agent/command.js'
import type { Io } from '../agent/command.js'
import { EXIT, EXIT_HELP } from '../agent/exit-codes.js'
import { COMMON_HELP, connect } from '../agent/options.js'
import { taskLines } from '../agent/render.js'

export const summary = 'show a task: its state, status message and artifacts'

const HELP = `Usage: a2a get <url> <taskId> [options]

Shows the task as it is now: its artifacts and its state with the status message (--json: the
task). Exits 0 whatever the task's state, once it was read.

${COMMON_HELP}
${EXIT_HELP}`

export function run(argv: string[], io: Io = processIo()): Promise<number> {
  return runCommand(
    {
      name: 'get',
      help: HELP,
      options: {},
      positionals: 1,
      async run(_parsed, connection, [taskId]) {
        const client = await connect(connection)
        const task = await client.get(taskId!)
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
