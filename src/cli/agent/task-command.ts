/** A command that acts on one task by id and shows the task the agent answers with (get, cancel). */
import type { A2AClient } from '../../client/client.js'
import type { RemoteTask } from '../../client/model.js'
import { runCommand } from './command.js'
import type { Io } from './command.js'
import { EXIT } from './exit-codes.js'
import { connect } from './options.js'
import { taskLines } from './render.js'

export function runTaskCommand(
  name: string,
  help: string,
  act: (client: A2AClient, taskId: string) => Promise<RemoteTask>,
  argv: string[],
  io: Io,
): Promise<number> {
  return runCommand(
    {
      name,
      help,
      options: {},
      positionals: ['<taskId>'],
      async run(_parsed, connection, [taskId]) {
        const task = await act(await connect(connection), taskId!)
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
