/**
 * `npm run bench`: starts each server under test in its own child process on a free 127.0.0.1
 * port, loads each scenario with autocannon (warm-up not counted), stops the server, and prints
 * req/s and latency per scenario and server plus each server's ratio to the bare-Fastify ceiling.
 *
 * Settings (environment): BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (default 10),
 * BENCH_WARMUP (s, default 2), BENCH_OUT (a path to write the results as JSON; unset: print only).
 *
 * Exit code: 0 when every request succeeded (a missed target is reported, not a failure);
 * 1 when any response was not a 200 with the expected body, or a server failed.
 */
/* global fetch */
import console from 'node:console'
import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { dirname, resolve } from 'node:path'
import process from 'node:process'
import { fileURLToPath } from 'node:url'
import { failed, measure } from './load.js'
import { installCleanup, startNodeServer } from './servers.js'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const CARD_PATH = '/.well-known/agent.json'
/** Ours should reach at least this share of the bare-Fastify ceiling's req/s. */
const TARGET_RATIO = 0.5

const settings = {
  durationSeconds: positiveInt('BENCH_DURATION', 10),
  connections: positiveInt('BENCH_CONNECTIONS', 10),
  warmupSeconds: positiveInt('BENCH_WARMUP', 2, 0),
  pipelining: 1,
  targetRatio: TARGET_RATIO,
}

/**
 * The servers under test, run one at a time in this order. `start(ctx)` resolves with a started
 * server ({ url, stop() }); `ctx.card` is the agent card read from the first server that served
 * one. Exactly one entry is the `baseline` every other server is compared with.
 */
const SERVERS = [
  {
    name: 'ours',
    start: () =>
      startNodeServer({
        name: 'ours',
        args: [resolve(ROOT, 'dist/server.js')],
        cwd: ROOT,
        env: { LOG_LEVEL: 'silent', BUNDLED_SKILLS: 'echo' },
        readyPath: CARD_PATH,
      }),
  },
  {
    name: 'bare-fastify',
    baseline: true,
    start: (ctx) =>
      startNodeServer({
        name: 'bare-fastify',
        args: [resolve(ROOT, 'bench/bare-fastify.js')],
        cwd: ROOT,
        env: ctx.card ? { BARE_CARD: ctx.card } : {},
        readyPath: CARD_PATH,
      }),
  },
]

const SEND_BODY_HEAD = '{"id":"'
const SEND_BODY_TAIL = JSON.stringify({
  message: { role: 'user', parts: [{ type: 'text', text: 'hello' }] },
  metadata: { skillId: 'echo' },
}).replace(/^\{/, '",')

/**
 * What each server is loaded with. `request` is autocannon's (method, path, headers, body, or
 * setupRequest to change each request); a response is counted as a mismatch unless
 * `verify(body)` holds.
 */
const SCENARIOS = [
  {
    name: `GET ${CARD_PATH}`,
    request: { method: 'GET', path: CARD_PATH },
    verify: (body) => body.startsWith('{"name":') && body.includes('"skills":['),
  },
  {
    name: 'POST /tasks/send (echo)',
    request: {
      method: 'POST',
      path: '/tasks/send',
      headers: { 'content-type': 'application/json' },
      // A fresh task id per request: a repeated id would be an idempotent retry (a cache hit).
      setupRequest: (request) => ({
        ...request,
        body: SEND_BODY_HEAD + randomUUID() + SEND_BODY_TAIL,
      }),
    },
    verify: (body) => body.includes('"status":{"state":"completed"'),
  },
]

async function main() {
  installCleanup()
  if (!existsSync(resolve(ROOT, 'dist/server.js'))) {
    throw new Error('dist/server.js is missing: run `npm run build` (or `npm run bench`)')
  }
  const machine = {
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cpus: os.cpus().length,
    availableParallelism: os.availableParallelism(),
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    node: process.version,
  }
  console.log(
    `machine: ${machine.cpu}, ${machine.cpus} CPUs, ${machine.memoryGiB} GiB, ` +
      `${machine.platform}, node ${machine.node}`,
  )
  console.log(
    `settings: ${settings.connections} connections, ${settings.durationSeconds} s measured after ` +
      `${settings.warmupSeconds} s warm-up per scenario, pipelining ${settings.pipelining}, ` +
      `servers one at a time on 127.0.0.1`,
  )
  console.log()

  const ctx = { card: undefined }
  const results = []
  for (const entry of SERVERS) {
    const server = await entry.start(ctx)
    try {
      ctx.card ??= await readCard(server.url)
      for (const scenario of SCENARIOS) {
        process.stderr.write(`${entry.name}: ${scenario.name} ... `)
        const measurement = await measure({
          url: server.url,
          request: scenario.request,
          verify: scenario.verify,
          connections: settings.connections,
          duration: settings.durationSeconds,
          warmup: settings.warmupSeconds,
        })
        process.stderr.write(`${Math.round(measurement.rps)} req/s\n`)
        results.push({ scenario: scenario.name, server: entry.name, ...measurement })
      }
    } finally {
      await server.stop()
    }
  }

  const ratios = compare(results)
  const ok = !results.some(failed)
  console.log()
  printTable(results)
  console.log()
  printRatios(ratios)
  for (const result of results.filter(failed)) {
    console.log(
      `FAILED REQUESTS: ${result.server} / ${result.scenario}: ${describeFailures(result)}` +
        (result.warmup ? `; warm-up: ${describeFailures(result.warmup)}` : ''),
    )
  }

  if (process.env.BENCH_OUT) {
    const out = resolve(process.env.BENCH_OUT)
    await mkdir(dirname(out), { recursive: true })
    const report = { date: new Date().toISOString(), machine, settings, results, ratios, ok }
    await writeFile(out, `${JSON.stringify(report, null, 2)}\n`)
    console.log(`\nresults written to ${out}`)
  }
  return ok ? 0 : 1
}

async function readCard(url) {
  const response = await fetch(`${url}${CARD_PATH}`)
  if (!response.ok) throw new Error(`GET ${CARD_PATH} answered ${response.status}`)
  return response.text()
}

/** Each non-baseline server's req/s over the baseline's, per scenario. */
function compare(results) {
  const baseline = SERVERS.find((s) => s.baseline)?.name
  const ratios = []
  for (const scenario of SCENARIOS) {
    const base = results.find((r) => r.scenario === scenario.name && r.server === baseline)
    for (const r of results.filter((r) => r.scenario === scenario.name && r.server !== baseline)) {
      const ratio = base && base.rps > 0 ? r.rps / base.rps : NaN
      ratios.push({
        scenario: scenario.name,
        server: r.server,
        baseline,
        ratio,
        targetMet: ratio >= TARGET_RATIO,
      })
    }
  }
  return ratios
}

function printTable(results) {
  const header = ['scenario', 'server', 'req/s (mean)', 'p50 ms', 'p99 ms', 'non-2xx', 'errors']
  const order = (r) => SCENARIOS.findIndex((s) => s.name === r.scenario)
  const sorted = [...results].sort((a, b) => order(a) - order(b))
  const rows = sorted.map((r) => [
    r.scenario,
    r.server,
    r.rps.toFixed(0),
    r.p50.toFixed(2),
    r.p99.toFixed(2),
    String(r.non2xx),
    String(r.errors + r.timeouts + r.mismatches),
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)))
  const numeric = new Set([2, 3, 4, 5, 6])
  const line = (cells) =>
    cells
      .map((cell, i) => (numeric.has(i) ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
      .join('  ')
  console.log(line(header))
  console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  for (const row of rows) console.log(line(row))
  console.log('(errors = connection errors + timeouts + responses without the expected body)')
}

function printRatios(ratios) {
  const pct = (n) => `${(n * 100).toFixed(1)}%`
  console.log(`req/s ratio to the bare-Fastify ceiling (target: >= ${pct(TARGET_RATIO)}):`)
  const width = Math.max(...ratios.map((r) => `${r.server} / ${r.scenario}`.length))
  for (const r of ratios) {
    const label = `${r.server} / ${r.scenario}`.padEnd(width)
    const verdict = r.targetMet ? 'target met' : 'TARGET MISSED'
    console.log(`  ${label}  ${pct(r.ratio).padStart(7)}  ${verdict}`)
  }
}

function describeFailures(f) {
  return (
    `${f.non2xx} non-2xx, ${f.non200} not 200, ${f.errors} errors, ${f.timeouts} timeouts, ` +
    `${f.mismatches} unexpected bodies`
  )
}

function positiveInt(name, fallback, min = 1) {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`${name} must be an integer >= ${min} (got "${raw}")`)
  }
  return value
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`)
    process.exit(1)
  },
)
