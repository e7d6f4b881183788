/**
 * A web page on another origin calls the agent from a real browser (headless Chromium): with
 * CORS_ORIGINS naming the page's origin, it reads the card, sends, streams, and reads the 401 of
 * a call without a token; a page on an origin not named reads nothing. The agent listens on
 * real HTTP; the page is served from a second server, at two origins (127.0.0.1 and localhost).
 */
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testApp } from '../helpers/app.js'
import { token } from '../helpers/auth.js'
import { freePort } from '../helpers/free-port.js'

/** Debian's package; CHROMIUM_PATH names another. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const PAGE = readFileSync(new URL('../fixtures/browser/cors-page.html', import.meta.url), 'utf8')

let agent: FastifyInstance
let agentUrl: string
let pages: Server
let pagePort: number
const reports = new Map<string, (report: Record<string, unknown>) => void>()

beforeAll(async () => {
  pagePort = await freePort()
  // The page's origin, as the browser will send it; localhost on the same port is another one.
  agent = await testApp({ CORS_ORIGINS: `http://127.0.0.1:${pagePort}` })
  agentUrl = await agent.listen({ host: '127.0.0.1', port: 0 })
  pages = createServer((request, response) => {
    if (request.method === 'POST' && request.url === '/report') {
      let body = ''
      request.setEncoding('utf8')
      request.on('data', (chunk: string) => (body += chunk))
      request.on('end', () => {
        reports.get(request.headers.host ?? '')?.(JSON.parse(body) as Record<string, unknown>)
        response.end()
      })
      return
    }
    response.setHeader('content-type', 'text/html; charset=utf-8')
    response.end(PAGE)
  })
  await new Promise<void>((resolve) => pages.listen(pagePort, '127.0.0.1', resolve))
})

afterAll(async () => {
  await agent?.close()
  pages?.close()
})

/** Opens the page at `host` in Chromium and resolves with what it reports. */
async function visit(host: string): Promise<Record<string, unknown>> {
  const profile = mkdtempSync(join(tmpdir(), 'a2a-chromium-'))
  const query = new URLSearchParams({ agent: agentUrl, token: token() })
  let browser: ChildProcess | undefined
  try {
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no report from ${host} in 30 s`)), 30_000)
      reports.set(host, (report) => {
        clearTimeout(timer)
        resolve(report)
      })
      browser = spawn(
        CHROMIUM,
        [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-dev-shm-usage',
          '--no-first-run',
          `--user-data-dir=${profile}`,
          `http://${host}/?${query.toString()}`,
        ],
        // Its temporary files go to the profile, removed with it.
        { stdio: 'ignore', detached: true, env: { ...process.env, TMPDIR: profile } },
      )
      browser.once('error', reject)
    })
  } finally {
    reports.delete(host)
    if (browser?.pid !== undefined && browser.exitCode === null && browser.signalCode === null) {
      const exited = once(browser, 'exit')
      // The whole group: Chromium's helper processes write to the profile too. SIGTERM lets
      // them remove their temporary files; SIGKILL if they take long.
      process.kill(-browser.pid, 'SIGTERM')
      const timer = setTimeout(() => process.kill(-browser!.pid!, 'SIGKILL'), 3000)
      await exited
      clearTimeout(timer)
    }
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
  }
}

// Skipped where no Chromium is installed, but never in CI (.ci/run installs it).
describe.skipIf(!existsSync(CHROMIUM) && process.env.CI !== 'true')(
  'a page on another origin, in Chromium',
  () => {
    it('calls the agent when CORS_ORIGINS names its origin', async () => {
      const report = await visit(`127.0.0.1:${pagePort}`)
      expect(report).toEqual({
        card: { status: 200, name: 'Code Review Agent', etag: expect.stringMatching(/^"/) },
        send: {
          status: 200,
          state: 'TASK_STATE_COMPLETED',
          requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        },
        stream: {
          status: 200,
          contentType: expect.stringMatching(/^text\/event-stream/),
          events: expect.any(Number),
          lastState: 'TASK_STATE_COMPLETED',
        },
        withoutToken: { status: 401, code: -32030, wwwAuthenticate: 'Bearer realm="a2a"' },
      })
      expect((report.stream as { events: number }).events).toBeGreaterThanOrEqual(3)
    }, 40_000)

    it('reads nothing from a page on an origin it does not name', async () => {
      const report = await visit(`localhost:${pagePort}`)
      for (const step of ['card', 'send', 'stream', 'withoutToken']) {
        expect(report[step]).toEqual({ error: 'TypeError: Failed to fetch' })
      }
    }, 40_000)
  },
)
