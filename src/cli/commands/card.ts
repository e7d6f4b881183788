/** `a2a card <url>`: the agent's card, readable (or as the agent sent it, with --json). */
import { runCommand, processIo } from '../agent/command.js'
import type { Io } from '../agent/command.js'
import { EXIT, EXIT_HELP } from '../agent/exit-codes.js'
import { COMMON_HELP, connect } from '../agent/options.js'
import { cardLines } from '../agent/render.js'

export const summary = "read an agent's card: name, dialect, skills"

const HELP = `Usage: a2a card <url> [options]

Reads the Agent Card at <url> (the agent's base URL, or the card's own URL) and shows the
agent's name, description, version, the dialect the client speaks to it, and its skills.
--json prints the card as the agent sent it.

${COMMON_HELP}
${EXIT_HELP}`

export function run(argv: string[], io: Io = processIo()): Promise<number> {
  return runCommand(
    {
      name: 'card',
      help: HELP,
      options: {},
      positionals: [],
      async run(_parsed, connection) {
        const client = await connect(connection)
        io.out.write(
          connection.json
            ? `${JSON.stringify(client.card.raw, null, 2)}\n`
            : `${cardLines(client.card).join('\n')}\n`,
        )
        return EXIT.ok
      },
    },
    argv,
    io,
  )
}
