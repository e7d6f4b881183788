/**
 * `a2a send` and `a2a stream` take the same inputs; this is their shared command: the message
 * options, the answers to questions (stdin unless --no-input), and the conversation.
 */
import type { Io } from './command.js'
import { runCommand } from './command.js'
import { noAnswers, stdinAnswers } from './answers.js'
import { interruptedHint, sendAndFollow, streamAndFollow } from './conversation.js'
import type { Conversation } from './conversation.js'
import { EXIT_HELP } from './exit-codes.js'
import { messageOf } from './message.js'
import { COMMON_HELP, connect } from './options.js'
import type { CommandOptions } from './options.js'

const TALK_OPTIONS = {
  skill: { type: 'string' },
  data: { type: 'string' },
  file: { type: 'string', multiple: true },
  mime: { type: 'string' },
  task: { type: 'string' },
  'no-input': { type: 'boolean', default: false },
} as const satisfies CommandOptions

const talkHelp = (mode: 'send' | 'stream') => `Message options:
  [text]             the message text (several words are joined with spaces)
  --skill <id>       the skill to run (the agent's card must declare it)
  --data <json>      a data part: a JSON object
  --file <path>      a file part (base64); repeat for more files
  --mime <type>      the files' MIME type (default: from the extension)
  --task <taskId>    answer a task that waits for input instead of starting a new one
  --no-input         do not prompt when the task asks for input: print the question, exit 3

When the task asks for input, the question is printed and the answer is read from stdin, one
line per question (typed, or piped: echo red | a2a ${mode} …); the task then goes on.
`

export function talk(mode: 'send' | 'stream', usage: string, argv: string[], io: Io) {
  return runCommand(
    {
      name: mode,
      help: `${usage}\n${talkHelp(mode)}\n${COMMON_HELP}\n${EXIT_HELP}`,
      options: TALK_OPTIONS,
      positionals: 'any',
      async run({ values }, connection, text) {
        const { skill, data, mime, task } = values as Record<string, string | undefined>
        const file = values.file as string[] | undefined
        const input = await messageOf({
          text,
          data,
          file,
          mime,
          skill: task === undefined ? skill : undefined,
        })
        const client = await connect(connection)
        if (skill !== undefined) client.skill(skill)
        const answers = values['no-input'] ? noAnswers : stdinAnswers(io.stdin, io.err)
        const conversation: Conversation = {
          client,
          url: connection.url,
          waitMs: connection.timeoutMs,
          input,
          taskId: task,
          answers,
          json: connection.json,
          mode,
          out: io.out,
          err: io.err,
          followed: {},
        }
        // Ctrl-C stops the command, not the task: say so, and how to stop the task too. Then
        // end by the signal itself, as without this handler (the shell's exit status 130).
        const interrupted = () => {
          const hint = interruptedHint(conversation)
          if (hint !== undefined) io.err.write(hint)
          process.kill(process.pid, 'SIGINT')
        }
        process.once('SIGINT', interrupted)
        try {
          return await (mode === 'send' ? sendAndFollow : streamAndFollow)(conversation)
        } finally {
          process.removeListener('SIGINT', interrupted)
          answers.close()
        }
      },
    },
    argv,
    io,
  )
}
