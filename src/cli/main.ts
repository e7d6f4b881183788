#!/usr/bin/env node
/**
 * The `a2a` command: `a2a <command> [options]`. Each command is a module under commands/ that
 * exports `run(argv)` and resolves to the exit code; add one by adding a line to COMMANDS.
 */
import { readFileSync, realpathSync } from 'node:fs'
import { pathToFileURL } from 'node:url'

type Command = { run(argv: string[]): Promise<number>; summary: string }

const COMMANDS: Record<string, () => Promise<Command>> = {
  card: () => import('./commands/card.js'),
  send: () => import('./commands/send.js'),
  stream: () => import('./commands/stream.js'),
  get: () => import('./commands/get.js'),
  cancel: () => import('./commands/cancel.js'),
  token: () => import('./commands/token.js'),
  audit: () => import('./commands/audit.js'),
}

/** The list of commands with what each does (every module is loaded: help only). */
async function usage(): Promise<string> {
  const commands = await Promise.all(
    Object.entries(COMMANDS).map(async ([name, load]) => ({ name, ...(await load()) })),
  )
  const width = Math.max(...commands.map(({ name }) => name.length))
  return [
    'Usage: a2a <command> [options]',
    '',
    'Commands:',
    ...commands.map(({ name, summary }) => `  ${name.padEnd(width)}  ${summary}`),
    '',
    'Run "a2a <command> --help" for its options and exit codes; "a2a --version" for the version.',
  ].join('\n')
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${await usage()}\n`)
    return name === undefined ? 64 : 0
  }
  if (name === '--version' || name === '-V') {
    process.stdout.write(`${version()}\n`)
    return 0
  }
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined
  if (!load) {
    process.stderr.write(`a2a: unknown command "${name}"\n\n${await usage()}\n`)
    return 64
  }
  return (await load()).run(rest)
}

/** This package's version, from its package.json (two levels up, in src/ and in dist/ alike). */
function version(): string {
  const manifest = new URL('../../package.json', import.meta.url)
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version
}

/** Run as a program (directly, or through the npm bin symlink), not imported. */
const invoked = (): boolean => {
  try {
    return import.meta.url === pathToFileURL(realpathSync(process.argv[1] ?? '')).href
  } catch {
    return false
  }
}

if (invoked()) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code
    },
    (error: unknown) => {
      process.stderr.write(`a2a: ${error instanceof Error ? error.message : String(error)}\n`)
      process.exitCode = 1
    },
  )
}
