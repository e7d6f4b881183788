/**
 * A private `redis-server` for fault tests, on a free port with its own data folder and
 * persistence on (AOF), that a test may stop and start again. Never the shared one on 6379.
 */
import { spawn, spawnSync } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from './free-port.js'

export const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0

export class PrivateRedis {
  #child: ChildProcess | undefined

  private constructor(
    readonly port: number,
    readonly dir: string,
    /** More `redis-server` arguments (e.g. `--requirepass`). */
    readonly args: readonly string[],
  ) {}

  static async start(args: readonly string[] = []): Promise<PrivateRedis> {
    const dir = mkdtempSync(join(tmpdir(), 'a2a-redis-'))
    const redis = new PrivateRedis(await freePort(), dir, args)
    await redis.start()
    return redis
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`
  }

  /** Starts the server (again) on the same port and data folder; resolves once it is ready. */
  async start(): Promise<void> {
    const child = spawn(
      'redis-server',
      [
        ...['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir],
        ...['--save', '', '--appendonly', 'yes', '--protected-mode', 'no'],
        ...this.args,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    this.#child = child
    let output = ''
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`redis-server did not start:\n${output}`)),
        10_000,
      )
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer)
          resolve()
        }
      })
      child.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`redis-server exited with ${code}:\n${output}`))
      })
    })
  }

  /** SIGTERM: Redis writes its AOF and exits. Resolves once it has. */
  async stop(): Promise<void> {
    const child = this.#child
    this.#child = undefined
    if (!child || child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
  }

  async remove(): Promise<void> {
    this.#child?.kill('SIGKILL')
    this.#child = undefined
    rmSync(this.dir, { recursive: true, force: true })
  }
}
