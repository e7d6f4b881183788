/** `a2a send <url> [options] [text]`: sends a message and shows the task once it is done. */
import { processIo } from '../agent/command.js'
import type { Io } from '../agent/command.js'
import { talk } from '../agent/talk-command.js'

export const summary = 'send a message and wait for the task to finish'

const USAGE = `Usage: a2a send <url> [--skill <id>] [--data <json>] [--file <path>] [options] [text]

Sends a message to the agent, shows its task's id as soon as it is known, waits for the task
to finish, then shows its artifacts (text as text, data as JSON, files by name, type and size)
and its final state with the agent's status message. --json prints the task. Ctrl-C leaves the
task running on the agent, and says how to cancel it.
`

export function run(argv: string[], io: Io = processIo()): Promise<number> {
  return talk('send', USAGE, argv, io)
}
