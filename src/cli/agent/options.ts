/**
 * The options every command that calls an agent shares (--token, --dialect, --timeout, --json),
 * parsed once, and the A2AClient they configure.
 */
import { parseArgs } from 'node:util'
import type { ParseArgsConfig } from 'node:util'
import { A2AClient } from '../../client/client.js'
import type { A2AClientOptions } from '../../client/client.js'
import type { ResolveOptions } from '../../client/card.js'
import { CliFailure, EXIT, usageFailure } from './exit-codes.js'

export const COMMON_HELP = `Common options:
  --token <token>    bearer token (default: $A2A_TOKEN)
  --dialect <d>      seed | jsonrpc | jsonrpc-1.0 | jsonrpc-0.3 (default: what the card offers)
  --timeout <ms>     how long each request may wait for the agent, and send for a task
                     to end once the agent has it (default: 60000)
  --json             machine-readable output
  -h, --help         this help
`

const COMMON = {
  token: { type: 'string' },
  dialect: { type: 'string' },
  timeout: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies CommandOptions

const DIALECTS = ['seed', 'jsonrpc', 'jsonrpc-1.0', 'jsonrpc-0.3'] as const
type DialectChoice = (typeof DIALECTS)[number]

export interface CommonValues {
  token?: string
  dialect?: string
  timeout?: string
  json?: boolean
  help?: boolean
}

export interface Connection {
  url: string
  token: string | undefined
  timeoutMs: number
  dialect: DialectChoice | undefined
  json: boolean
}

export const DEFAULT_TIMEOUT_MS = 60_000

export type CommandOptions = NonNullable<ParseArgsConfig['options']>

export interface ParsedCommand {
  values: Record<string, string | boolean | string[] | undefined>
  positionals: string[]
}

/** Parses `argv` with the common options and the command's own; usage errors are CliFailures. */
export function parseCommand(argv: string[], own: CommandOptions): ParsedCommand {
  try {
    return parseArgs({
      args: argv,
      options: { ...COMMON, ...own },
      allowPositionals: true,
      strict: true,
    })
  } catch (error) {
    throw usageFailure(parseArgsProblem(error as Error & { code?: string }))
  }
}

/**
 * What a parseArgs error says, in this CLI's words: Node's text for an unknown option ends in
 * an unbalanced quote.
 */
export function parseArgsProblem(error: Error & { code?: string }): string {
  const option = /^Unknown option '([^']+)'/.exec(error.message)?.[1]
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option !== undefined) {
    return `unknown option ${option} (a text that starts with "-" goes after "--": -- "${option}")`
  }
  return error.message
}

/** The connection settings from the parsed common options, the agent URL and the environment. */
export function connectionOf(
  values: CommonValues,
  url: string | undefined,
  env: NodeJS.ProcessEnv,
): Connection {
  if (url === undefined) throw usageFailure('the agent URL is missing')
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw usageFailure(`"${url}" is not a URL (like http://localhost:3000)`)
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw usageFailure(`"${url}" is not an http or https URL`)
  }
  const dialect = values.dialect
  if (dialect !== undefined && !DIALECTS.includes(dialect as DialectChoice)) {
    throw usageFailure(`--dialect must be one of ${DIALECTS.join(', ')}`)
  }
  // Given empty, most often from an unset variable: not a reason to use $A2A_TOKEN instead.
  if (values.token === '')
    throw usageFailure('--token is empty: give a token, or leave it out to use $A2A_TOKEN')
  let timeoutMs = DEFAULT_TIMEOUT_MS
  if (values.timeout !== undefined) {
    timeoutMs = Number(values.timeout)
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) {
      throw usageFailure(`--timeout must be a positive number of milliseconds`)
    }
  }
  return {
    url,
    token: values.token || env.A2A_TOKEN || undefined,
    timeoutMs,
    dialect: dialect as DialectChoice | undefined,
    json: values.json === true,
  }
}

/** Reads the agent's card and returns the client, in the dialect asked for when one was. */
export async function connect(connection: Connection): Promise<A2AClient> {
  const { dialect } = connection
  const options: A2AClientOptions & ResolveOptions = {
    timeoutMs: connection.timeoutMs,
    ...(connection.token !== undefined && { token: connection.token }),
    ...(dialect === 'seed' && { dialect: 'seed' }),
    ...(dialect === 'jsonrpc-1.0' && { protocolVersion: '1.0' }),
    ...(dialect === 'jsonrpc-0.3' && { protocolVersion: '0.3' }),
  }
  const client = await A2AClient.connect(connection.url, options)
  const spoken = client.card.dialect
  if (dialect !== undefined && spoken !== dialect && !spoken.startsWith(`${dialect}-`)) {
    throw new CliFailure(
      `the agent does not offer the ${dialect} dialect; its card (${client.card.source}) offers ${spoken}`,
      EXIT.protocol,
    )
  }
  return client
}
