/** `a2a stream <url> [options] [text]`: sends a message and shows the task's progress live. */
import { processIo } from '../agent/command.js'
import type { Io } from '../agent/command.js'
import { talk } from '../agent/talk-command.js'

export const summary = 'send a message and follow the task live'

const USAGE = `Usage: a2a stream <url> [--skill <id>] [--data <json>] [--file <path>] [options] [text]

Sends a message to the agent and follows its task as it happens: each state with the agent's
status message, and each artifact (or chunk of one) as it arrives, until the task finishes.
--json prints each event as one JSON line. Ctrl-C leaves the task running on the agent, and
says how to cancel it.
`

export function run(argv: string[], io: Io = processIo()): Promise<number> {
  return talk('stream', USAGE, argv, io)
}
