/**
 * The CPU time a server process has used (user + system, all its threads), from Linux's
 * /proc/<pid>/stat. On a small shared VM a server's requests/s drift from minute to minute, but
 * the CPU it spends per request holds much steadier: the report gives both. Elsewhere (no
 * /proc) the figure is left out.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

let ticksPerSecond

/** µs of CPU `pid` has used so far; undefined where /proc cannot tell. */
export function cpuMicros(pid) {
  if (pid === undefined) return undefined
  let stat
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return undefined
  }
  // Fields after the command name (which may hold spaces), counted from 3: utime is 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const ticks = Number(fields[11]) + Number(fields[12])
  ticksPerSecond ??= clockTicks()
  return (ticks * 1e6) / ticksPerSecond
}

function clockTicks() {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
  } catch {
    return 100
  }
}
