/**
 * What every command that calls an agent does around its own work: parse the options, print
 * --help, and turn a failure into one line on stderr (the agent's code and message) and an
 * exit code. Never a stack trace.
 */
import type { Readable, Writable } from 'node:stream'
import { describeFailure, EXIT, exitCodeOf, usageFailure } from './exit-codes.js'
import type { CommandOptions, CommonValues, Connection, ParsedCommand } from './options.js'
import { connectionOf, parseCommand } from './options.js'

export interface Io {
  out: Pick<Writable, 'write'>
  err: Pick<Writable, 'write'>
  stdin: Readable
  env: NodeJS.ProcessEnv
}

export function processIo(): Io {
  // `a2a stream … | head`: the reader left; stop quietly rather than with an EPIPE trace.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0)
    throw error
  })
  return { out: process.stdout, err: process.stderr, stdin: process.stdin, env: process.env }
}

export interface CommandSpec {
  name: string
  help: string
  options: CommandOptions
  /** The positionals after the URL, as the help names them (`<taskId>`), or `'any'`. */
  positionals: readonly string[] | 'any'
  run(parsed: ParsedCommand, connection: Connection, rest: string[], io: Io): Promise<number>
}

export async function runCommand(spec: CommandSpec, argv: string[], io: Io): Promise<number> {
  let hasToken = false
  try {
    const parsed = parseCommand(argv, spec.options)
    const common = parsed.values as CommonValues
    if (common.help === true) {
      io.out.write(spec.help)
      return EXIT.ok
    }
    const [url, ...rest] = parsed.positionals
    const connection = connectionOf(common, url, io.env)
    hasToken = connection.token !== undefined
    const expected = spec.positionals
    if (expected !== 'any' && rest.length !== expected.length) {
      throw usageFailure(
        rest.length < expected.length
          ? `${expected[rest.length]!} is missing`
          : `unexpected argument "${rest[expected.length]!}"`,
      )
    }
    return await spec.run(parsed, connection, rest, io)
  } catch (error) {
    const code = exitCodeOf(error)
    io.err.write(`a2a ${spec.name}: ${describeFailure(error, hasToken)}\n`)
    if (code === EXIT.usage) io.err.write(`Run "a2a ${spec.name} --help" for its options.\n`)
    return code
  }
}
