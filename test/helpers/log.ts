/** A pino logger that keeps its lines, for tests that assert what the log says. */
import { Writable } from 'node:stream'
import { pino } from 'pino'
import type { Logger, LoggerOptions } from 'pino'

export interface LogLine {
  level: number
  msg: string
  [field: string]: unknown
}

/** A logger at `level` (default `warn`) and the lines it has written. */
export function keptLog(
  level = 'warn',
  options: Omit<LoggerOptions, 'level'> = {},
): { lines: LogLine[]; logger: Logger } {
  const lines: LogLine[] = []
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        lines.push(JSON.parse(line) as LogLine)
      }
      done()
    },
  })
  return { lines, logger: pino({ ...options, level }, sink) }
}
