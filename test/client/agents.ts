/**
 * What the client tests run against: this server on a real port (its cards naming that port),
 * skills that take time and talk, and a TCP proxy a test can cut to drop a stream for real.
 */
import type { AddressInfo, Server, Socket } from 'node:net'
import { connect, createServer } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { textPart } from '../../src/domain/parts.js'
import type { Part } from '../../src/domain/model.js'
import { echoSkill } from '../../src/skills/echo/index.js'
import { defineSkill } from '../../src/skills/skill.js'
import { testApp } from '../helpers/app.js'
import { askSkill } from '../helpers/skills.js'

const base = { tags: ['test'], description: 'a client test skill' }

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => {
      clearTimeout(timer)
      resolve()
    })
  })

/** Reports `step 1` … `step N` (data.steps, default 5) every data.delayMs, then one artifact in N chunks. */
export const stepsSkill = defineSkill({
  ...base,
  id: 'steps',
  name: 'Steps',
  async execute(ctx) {
    const steps = Number(ctx.input.data.steps ?? 5)
    const delayMs = Number(ctx.input.data.delayMs ?? 40)
    let artifactId: string | undefined
    for (let step = 1; step <= steps; step++) {
      await pause(delayMs, ctx.signal)
      if (ctx.signal.aborted) return ctx.fail('aborted')
      await ctx.progress(`step ${step}`)
      artifactId = await ctx.emitArtifact(
        { ...(artifactId && { artifactId }), name: 'log', parts: [textPart(`line ${step}\n`)] },
        { append: step > 1, lastChunk: step === steps },
      )
    }
    return ctx.complete(`done after ${steps} steps`)
  },
})

/** Works until canceled. */
export const waitSkill = defineSkill({
  ...base,
  id: 'wait',
  name: 'Wait',
  async execute(ctx) {
    await ctx.progress('waiting')
    await pause(60_000, ctx.signal)
    return ctx.complete('waited')
  },
})

/** Finishes after data.ms (default 300 ms), saying nothing on the way. */
export const napSkill = defineSkill({
  ...base,
  id: 'nap',
  name: 'Nap',
  async execute(ctx) {
    await pause(Number(ctx.input.data.ms ?? 300), ctx.signal)
    return ctx.complete('rested')
  },
})

export const clientTestSkills = [echoSkill, askSkill, stepsSkill, waitSkill, napSkill]

import { freePort } from '../helpers/free-port.js'

export { freePort }

/** This server on a free port, its cards naming `publicUrl` (default: its own address). */
export async function startAgent(
  env: Record<string, string> = {},
  publicUrl?: string,
): Promise<{ app: FastifyInstance; url: string }> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const app = await testApp(
    { PUBLIC_URL: publicUrl ?? url, DEFAULT_SKILL: 'echo', ...env },
    { skills: clientTestSkills },
  )
  await app.listen({ host: '127.0.0.1', port })
  return { app, url }
}

/** A TCP proxy to `target`; `cut()` destroys every open connection, both ways. */
export class CuttableProxy {
  readonly #server: Server
  readonly #sockets = new Set<Socket>()
  /** Every byte clients sent through, as text (request lines and headers included). */
  sent = ''
  connections = 0
  target = 0
  /** While true, new connections are dropped at once (the agent looks unreachable). */
  refusing = false
  /** While true, a connection is dropped once the agent has sent its first SSE event on it. */
  droppingAfterFirstEvent = false

  constructor() {
    this.#server = createServer((client) => {
      if (this.refusing) {
        client.destroy()
        return
      }
      this.connections++
      const upstream = connect(this.target, '127.0.0.1')
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket)
        socket.on('close', () => this.#sockets.delete(socket))
        socket.on('error', () => {})
      }
      client.on('data', (chunk: Buffer) => (this.sent += chunk.toString('latin1')))
      client.pipe(upstream)
      upstream.on('data', (chunk: Buffer) => {
        client.write(chunk)
        if (this.droppingAfterFirstEvent && chunk.includes('data:')) client.destroy()
      })
      client.on('close', () => upstream.destroy())
      upstream.on('close', () => client.destroy())
    })
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve))
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`
  }

  cut(): void {
    for (const socket of this.#sockets) socket.destroy()
  }

  close(): Promise<void> {
    this.cut()
    return new Promise((resolve) => this.#server.close(() => resolve()))
  }
}

export const textOf = (parts: readonly Part[] | undefined): string =>
  (parts ?? []).map((part) => (part.kind === 'text' ? part.text : '')).join('')
