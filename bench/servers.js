/**
 * Child-process helpers for the benchmark: a free loopback port, spawning a server, waiting until
 * it answers, and killing it — always, also when the run fails or is interrupted.
 */
/* global fetch, AbortSignal */
import { spawn } from 'node:child_process'
import console from 'node:console'
import { once } from 'node:events'
import { createServer } from 'node:net'
import process from 'node:process'
import { clearTimeout, setTimeout } from 'node:timers'
import { setTimeout as sleep } from 'node:timers/promises'

/** Every server is bound here and nowhere else. */
export const HOST = '127.0.0.1'

const STDERR_TAIL = 8192
const live = new Set()

/** A port the kernel reports free on 127.0.0.1 (released again before the server binds it). */
export async function freePort() {
  const probe = createServer()
  probe.listen(0, HOST)
  await once(probe, 'listening')
  const { port } = probe.address()
  probe.close()
  await once(probe, 'close')
  return port
}

/**
 * Starts `node <args>` in `cwd` with `env` added to this process's environment, on a free port
 * passed as PORT (and HOST=127.0.0.1), then waits until GET `readyPath` answers 200.
 * Resolves with { name, pid, url, port, stderr(), stop() }.
 */
export async function startNodeServer({
  name,
  args,
  cwd,
  env = {},
  readyPath,
  timeoutMs = 20_000,
}) {
  const port = await freePort()
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env, HOST, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  live.add(child)
  let stderr = ''
  child.stderr.setEncoding('utf8')
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL)
  })
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      live.delete(child)
      resolve({ code, signal })
    })
  })

  const server = {
    name,
    pid: child.pid,
    port,
    url: `http://${HOST}:${port}`,
    stderr: () => stderr,
    stop: () => stopChild(child, exited),
  }
  try {
    await waitUntilReady(`${server.url}${readyPath}`, exited, timeoutMs)
  } catch (error) {
    await server.stop()
    const tail = stderr.trim() ? `\n--- ${name} stderr ---\n${stderr.trim()}` : ''
    throw new Error(`${name} did not start: ${error.message}${tail}`, { cause: error })
  }
  return server
}

async function waitUntilReady(url, exited, timeoutMs) {
  const deadline = Date.now() + timeoutMs
  let exit
  void exited.then((result) => (exit = result))
  let lastError
  while (Date.now() < deadline) {
    if (exit) throw new Error(`exited early (code ${exit.code}, signal ${exit.signal})`)
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) })
      await response.arrayBuffer()
      if (response.status === 200) return
      lastError = new Error(`GET ${url} answered ${response.status}`)
    } catch (error) {
      lastError = error
    }
    await sleep(50)
  }
  throw new Error(`no answer from ${url} within ${timeoutMs} ms (${lastError?.message})`)
}

/** SIGTERM, then SIGKILL if the process is still there after `graceMs`. */
async function stopChild(child, exited, graceMs = 5000) {
  if (child.exitCode !== null || child.signalCode !== null) return exited
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
  try {
    return await exited
  } finally {
    clearTimeout(timer)
  }
}

/** Makes sure `child` (e.g. a redis-server the run started) is killed with the servers. */
export function track(child) {
  live.add(child)
  child.once('exit', () => live.delete(child))
}

/** Synchronous last resort: kills every server still running. */
export function killAll() {
  for (const child of live) child.kill('SIGKILL')
  live.clear()
}

let installed = false

/**
 * Makes sure no server outlives this process: on exit, and on SIGINT/SIGTERM/SIGHUP (which then
 * exit with 128 + the signal number).
 */
export function installCleanup() {
  if (installed) return
  installed = true
  process.once('exit', killAll)
  for (const [signal, number] of [
    ['SIGINT', 2],
    ['SIGTERM', 15],
    ['SIGHUP', 1],
  ]) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping the servers`)
      killAll()
      process.exit(128 + number)
    })
  }
}
