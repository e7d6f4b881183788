/**
 * `npm run bench`: starts each server under test in its own child process on a free 127.0.0.1
 * port, loads each scenario with autocannon (warm-up not counted), stops the server, and prints
 * req/s, latency and CPU per request (and, for the Redis-backed servers, their Redis's CPU per
 * request) per scenario and server, plus each server's ratio to its bare-Fastify
 * ceiling: ours (in memory) against bare Fastify, ours on Redis against bare Fastify doing one
 * Redis write and read per send. Then what Redis holds: memory per finished task, and the keys
 * and memory before the load, after it, and once the tasks have expired.
 *
 * All servers run in turn, BENCH_ROUNDS times over: a machine whose speed drifts (a shared VM)
 * slows a server and its ceiling alike within a round, so each ratio is taken within a round,
 * and the report gives the median over the rounds (and each round's figure).
 *
 * Settings (environment): BENCH_ROUNDS (default 3), BENCH_DURATION (s per scenario and round,
 * default 5), BENCH_CONNECTIONS (default 10),
 * BENCH_WARMUP (s, default 10: see bench/README.md, "Warm-up"), BENCH_OUT (a path to write the results as JSON; unset: print only),
 * BENCH_REDIS_URL (a Redis to use; unset: a private redis-server on a free port),
 * BENCH_RETENTION_SECONDS (TASK_RETENTION_SECONDS of the Redis-backed server, default 5),
 * BENCH_SERVERS (comma-separated server names to run; unset: all).
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
import {
  A2A_CARD_PATH,
  A2A_SCENARIOS,
  OURS_A2A,
  SDK_RPS_TARGET,
  SDK_SERVER,
  compareWithSdk,
  printSdkComparison,
  runsOn,
} from './a2a-js-sdk-compare.js'
import { AUTH_HEADERS, SECURED } from './auth.js'
import { failed, measure } from './load.js'
import { drained, keysAndBytesUnder, redisCpuMicros, startBenchRedis, usedMemory } from './redis.js'
import { installCleanup, startNodeServer } from './servers.js'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const CARD_PATH = '/.well-known/agent.json'
/** Ours should reach at least this share of the bare-Fastify ceiling's req/s. */
const TARGET_RATIO = 0.5

const settings = {
  rounds: positiveInt('BENCH_ROUNDS', 3),
  durationSeconds: positiveInt('BENCH_DURATION', 5),
  connections: positiveInt('BENCH_CONNECTIONS', 10),
  warmupSeconds: positiveInt('BENCH_WARMUP', 10, 0),
  pipelining: 1,
  targetRatio: TARGET_RATIO,
  retentionSeconds: positiveInt('BENCH_RETENTION_SECONDS', 5),
  /** BENCH_SERVERS=ours-redis,bare-fastify-redis runs only those; unset: all. */
  servers: process.env.BENCH_SERVERS ? process.env.BENCH_SERVERS.split(',') : undefined,
}
/** The Redis-backed server's keys live under this prefix (unique per run). */
const REDIS_PREFIX = `bench:${randomUUID().slice(0, 8)}:`
/** Finished echo tasks sent to measure Redis memory per task. */
const MEMORY_BATCH = 1000

/**
 * The servers under test, run one at a time in this order. `start(ctx)` resolves with a started
 * server ({ url, stop() }); `ctx.card` is the agent card read from the first server that served
 * one, `ctx.redis` the benchmark's Redis. A `ceiling` is a bare baseline; every other server
 * names the ceiling it is compared `against`. `after(ctx, server)`, if any, runs once the
 * scenarios are done, before the server stops; what it returns goes into the report.
 */
const SERVERS = [
  {
    name: 'ours',
    against: 'bare-fastify',
    start: () =>
      startNodeServer({
        name: 'ours',
        args: [resolve(ROOT, 'dist/server.js')],
        cwd: ROOT,
        env: { LOG_LEVEL: 'silent', BUNDLED_SKILLS: 'echo', ...SECURED },
        readyPath: CARD_PATH,
      }),
  },
  {
    name: 'bare-fastify',
    ceiling: true,
    start: (ctx) =>
      startNodeServer({
        name: 'bare-fastify',
        args: [resolve(ROOT, 'bench/bare-fastify.js')],
        cwd: ROOT,
        env: ctx.card ? { BARE_CARD: ctx.card } : {},
        readyPath: CARD_PATH,
      }),
  },
  {
    // Ours again, fresh, for the A2A 1.0 scenarios only: the same conditions as the SDK's server
    // (an empty store), not the heap the brief's scenarios above have filled.
    name: OURS_A2A,
    a2aOnly: true,
    start: () =>
      startNodeServer({
        name: OURS_A2A,
        args: [resolve(ROOT, 'dist/server.js')],
        cwd: ROOT,
        env: { LOG_LEVEL: 'silent', BUNDLED_SKILLS: 'echo', ...SECURED },
        readyPath: A2A_CARD_PATH,
      }),
  },
  {
    // The official SDK's own server (Express JSON-RPC handler, echo executor): only the A2A 1.0
    // scenarios, measured against ours (see bench/a2a-js-sdk-compare.js).
    name: SDK_SERVER,
    a2aOnly: true,
    start: () =>
      startNodeServer({
        name: SDK_SERVER,
        args: [resolve(ROOT, 'bench/a2a-js-sdk.js')],
        cwd: ROOT,
        readyPath: A2A_CARD_PATH,
      }),
  },
  {
    name: 'ours-redis',
    against: 'bare-fastify-redis',
    redis: true,
    start: (ctx) =>
      startNodeServer({
        name: 'ours-redis',
        args: [resolve(ROOT, 'dist/server.js')],
        cwd: ROOT,
        env: {
          LOG_LEVEL: 'silent',
          BUNDLED_SKILLS: 'echo',
          REDIS_URL: ctx.redis.url,
          REDIS_KEY_PREFIX: REDIS_PREFIX,
          ...SECURED,
          // Audit records go to stdout (still written, so still measured) rather than to the
          // capped Redis stream, and rate-limit counters expire within a second: the memory
          // figures below are the tasks' own, and the keys fall back to the work queue's.
          AUDIT_SINK: 'stdout',
          RATE_LIMIT_WINDOW_MS: '1000',
          TASK_RETENTION_SECONDS: String(settings.retentionSeconds),
          TASK_SWEEP_INTERVAL_MS: '500',
        },
        readyPath: CARD_PATH,
      }),
    after: redisMemoryReport,
  },
  {
    name: 'bare-fastify-redis',
    ceiling: true,
    redis: true,
    start: (ctx) =>
      startNodeServer({
        name: 'bare-fastify-redis',
        args: [resolve(ROOT, 'bench/bare-fastify.js')],
        cwd: ROOT,
        env: { ...(ctx.card && { BARE_CARD: ctx.card }), BARE_REDIS_URL: ctx.redis.url },
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
      headers: { 'content-type': 'application/json', ...AUTH_HEADERS },
      // A fresh task id per request: a repeated id would be an idempotent retry (a cache hit).
      setupRequest: (request) => ({
        ...request,
        body: SEND_BODY_HEAD + randomUUID() + SEND_BODY_TAIL,
      }),
    },
    verify: (body) => body.includes('"status":{"state":"completed"'),
  },
  {
    // The response ends with the stream, so its latency is the time to the last event.
    name: 'POST /tasks/sendSubscribe (echo, to last event)',
    request: {
      method: 'POST',
      path: '/tasks/sendSubscribe',
      headers: { 'content-type': 'application/json', ...AUTH_HEADERS },
      setupRequest: (request) => ({
        ...request,
        body: SEND_BODY_HEAD + randomUUID() + SEND_BODY_TAIL,
      }),
    },
    verify: (body) => body.includes('"state":"completed"') && body.includes('"final":true'),
  },
  ...A2A_SCENARIOS,
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
    `settings: ${settings.rounds} rounds; ${settings.connections} connections, ` +
      `${settings.durationSeconds} s measured after ${settings.warmupSeconds} s warm-up per ` +
      `scenario, pipelining ${settings.pipelining}, servers one at a time on 127.0.0.1`,
  )
  console.log()

  const ctx = { card: undefined, redis: undefined }
  const results = []
  let redisReport
  if (SERVERS.some((entry) => entry.redis && (settings.servers?.includes(entry.name) ?? true))) {
    ctx.redis = await startBenchRedis()
    console.log(`redis: ${ctx.redis.private ? 'a private redis-server at ' : ''}${ctx.redis.url}`)
    console.log()
  }
  const before = ctx.redis && (await redisState(ctx))
  const servers = SERVERS.filter((s) => settings.servers?.includes(s.name) ?? true)
  for (let round = 1; round <= settings.rounds; round++) {
    const last = round === settings.rounds
    for (const entry of servers) {
      const server = await entry.start(ctx)
      try {
        if (!entry.a2aOnly) ctx.card ??= await readCard(server.url)
        for (const scenario of SCENARIOS.filter((s) => runsOn(s, entry))) {
          process.stderr.write(`round ${round}: ${entry.name}: ${scenario.name} ... `)
          const measurement = await measure({
            url: server.url,
            request: scenario.request,
            verify: scenario.verify,
            connections: settings.connections,
            duration: settings.durationSeconds,
            warmup: settings.warmupSeconds,
            pid: server.pid,
            ...(entry.redis && { redisCpu: () => redisCpuMicros(ctx.redis.client) }),
          })
          process.stderr.write(`${Math.round(measurement.rps)} req/s\n`)
          results.push({ round, scenario: scenario.name, server: entry.name, ...measurement })
        }
        // Once, after the last round's load: it waits for every task to expire.
        if (entry.after && last) redisReport = await entry.after(ctx, server, before)
      } finally {
        await server.stop()
      }
    }
  }
  await ctx.redis?.stop()

  const summary = summarize(results)
  const ratios = compare(results)
  const ok = !results.some(failed)
  console.log()
  printTable(summary)
  console.log()
  printRatios(ratios)
  const sdk = medianRows(perRound(results, compareWithSdk), ['ratio', 'oursP99', 'sdkP99']).map(
    (row) => ({ ...row, targetMet: row.ratio >= SDK_RPS_TARGET && row.oursP99 < row.sdkP99 }),
  )
  if (sdk.length > 0) {
    console.log()
    printSdkComparison(sdk)
  }
  if (redisReport) {
    console.log()
    printRedisReport(redisReport)
  }
  for (const result of results.filter(failed)) {
    console.log(
      `FAILED REQUESTS: ${result.server} / ${result.scenario}: ${describeFailures(result)}` +
        (result.warmup ? `; warm-up: ${describeFailures(result.warmup)}` : ''),
    )
  }

  if (process.env.BENCH_OUT) {
    const out = resolve(process.env.BENCH_OUT)
    await mkdir(dirname(out), { recursive: true })
    const report = {
      date: new Date().toISOString(),
      machine,
      settings,
      summary,
      ratios,
      results,
      sdk,
      redis: redisReport,
      ok,
    }
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

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/** Per scenario and server: the median of the rounds' figures, and each round's req/s. */
function summarize(results) {
  const groups = new Map()
  for (const result of results) {
    const key = `${result.scenario}\u0000${result.server}`
    groups.set(key, [...(groups.get(key) ?? []), result])
  }
  return [...groups.values()].map((runs) => ({
    scenario: runs[0].scenario,
    server: runs[0].server,
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    cpuUsPerRequest: median(runs.map((r) => r.cpuUsPerRequest ?? NaN)),
    redisCpuUsPerRequest: median(runs.map((r) => r.redisCpuUsPerRequest ?? NaN)),
    rpsPerRound: runs.map((r) => r.rps),
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    errors: runs.reduce((sum, r) => sum + r.errors + r.timeouts + r.mismatches, 0),
  }))
}

/** `rows(results of one round)` for every round, each row marked with its round. */
function perRound(results, rows) {
  const rounds = [...new Set(results.map((r) => r.round))]
  return rounds.flatMap((round) =>
    rows(results.filter((r) => r.round === round)).map((row) => ({ ...row, round })),
  )
}

/**
 * One row per scenario (and server and baseline, where rows have them): the median over the
 * rounds of each of `fields`, and each round's `ratio`.
 */
function medianRows(rows, fields) {
  const groups = new Map()
  for (const row of rows) {
    const key = [row.scenario, row.server, row.baseline].join('\u0000')
    groups.set(key, [...(groups.get(key) ?? []), row])
  }
  return [...groups.values()].map((group) => ({
    ...group[0],
    ...Object.fromEntries(fields.map((field) => [field, median(group.map((row) => row[field]))])),
    ratioPerRound: group.map((row) => row.ratio),
    round: undefined,
  }))
}

/** Each server's req/s over its ceiling's in the same round, per scenario; the median round. */
function compare(results) {
  const ratiosOfRound = (round) => {
    const ratios = []
    for (const scenario of SCENARIOS) {
      for (const entry of SERVERS.filter((s) => s.against)) {
        const baseline = entry.against
        const r = round.find((r) => r.scenario === scenario.name && r.server === entry.name)
        const base = round.find((r) => r.scenario === scenario.name && r.server === baseline)
        if (!r || !base) continue
        const ratio = base.rps > 0 ? r.rps / base.rps : NaN
        ratios.push({ scenario: scenario.name, server: r.server, baseline, ratio })
      }
    }
    return ratios
  }
  return medianRows(perRound(results, ratiosOfRound), ['ratio']).map((row) => ({
    ...row,
    targetMet: row.ratio >= TARGET_RATIO,
  }))
}

function printTable(summary) {
  const header = [
    'scenario',
    'server',
    'req/s (median)',
    'p50 ms',
    'p99 ms',
    'CPU µs/req',
    'Redis CPU µs/req',
    'non-2xx',
    'errors',
    'req/s per round',
  ]
  const order = (r) => SCENARIOS.findIndex((s) => s.name === r.scenario)
  const sorted = [...summary].sort((a, b) => order(a) - order(b))
  const rows = sorted.map((r) => [
    r.scenario,
    r.server,
    r.rps.toFixed(0),
    r.p50.toFixed(2),
    r.p99.toFixed(2),
    Number.isNaN(r.cpuUsPerRequest) ? '-' : r.cpuUsPerRequest.toFixed(0),
    Number.isNaN(r.redisCpuUsPerRequest) ? '-' : r.redisCpuUsPerRequest.toFixed(0),
    String(r.non2xx),
    String(r.errors),
    r.rpsPerRound.map((rps) => rps.toFixed(0)).join(' '),
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)))
  const numeric = new Set([2, 3, 4, 5, 6, 7, 8])
  const line = (cells) =>
    cells
      .map((cell, i) => (numeric.has(i) ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
      .join('  ')
      .trimEnd()
  console.log(line(header))
  console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  for (const row of rows) console.log(line(row))
  console.log("(medians over the rounds; CPU µs/req = the server process's user + system CPU time")
  console.log(' over the measured run, all its threads, per request; Redis CPU µs/req = the same')
  console.log(" for the Redis-backed servers' Redis, from its INFO; errors = connection errors")
  console.log(' + timeouts + responses without the expected body, over all rounds)')
}

function printRatios(ratios) {
  const pct = (n) => `${(n * 100).toFixed(1)}%`
  console.log(
    `req/s ratio to its bare-Fastify ceiling in the same round, median over the rounds ` +
      `(target: >= ${pct(TARGET_RATIO)}):`,
  )
  const label = (r) => `${r.server} vs ${r.baseline} / ${r.scenario}`
  const width = Math.max(...ratios.map((r) => label(r).length))
  for (const r of ratios) {
    const verdict = r.targetMet ? 'target met' : 'TARGET MISSED'
    const rounds = r.ratioPerRound.map(pct).join(' ')
    console.log(`  ${label(r).padEnd(width)}  ${pct(r.ratio).padStart(7)}  ${verdict}  (${rounds})`)
  }
}

/** Keys under the Redis-backed server's prefix, their bytes, and the Redis's used_memory. */
async function redisState(ctx) {
  const { client } = ctx.redis
  const { keys, bytes } = await keysAndBytesUnder(client, REDIS_PREFIX)
  return { keys, keyBytes: bytes, usedMemory: await usedMemory(client) }
}

/**
 * What Redis holds for the Redis-backed server: after the load; once its tasks have expired;
 * per finished echo task (what the keys under its prefix gained, by MEMORY USAGE, over a batch
 * of MEMORY_BATCH sent once the load's tasks are gone: used_memory moves with what the
 * allocator and the client buffers give back meanwhile, and has come out below zero); and once
 * those have expired too. Nothing may stay behind but the work queue and its workers' two keys.
 */
/** The keys an idle Redis-backed server keeps: the work queue, its workers and their skills. */
const QUEUE_KEYS = 3

async function redisMemoryReport(ctx, server, before) {
  const { client } = ctx.redis
  const expiry = settings.retentionSeconds * 1000 + 15_000
  process.stderr.write('ours-redis: waiting for the finished tasks to expire ... ')
  const afterLoad = await redisState(ctx)
  await drained(client, REDIS_PREFIX, QUEUE_KEYS, expiry)
  const idle = await redisState(ctx)
  process.stderr.write(`done\nours-redis: ${MEMORY_BATCH} tasks for the memory figure ... `)
  await sendEchoTasks(server.url, MEMORY_BATCH, settings.connections)
  const batch = await redisState(ctx)
  await drained(client, REDIS_PREFIX, QUEUE_KEYS, expiry)
  const afterRetention = await redisState(ctx)
  process.stderr.write('done\n')
  return {
    retentionSeconds: settings.retentionSeconds,
    before,
    afterLoad,
    idle,
    batch: { tasks: MEMORY_BATCH, ...batch },
    perTask: {
      bytes: (batch.keyBytes - idle.keyBytes) / MEMORY_BATCH,
      usedMemoryBytes: (batch.usedMemory - idle.usedMemory) / MEMORY_BATCH,
      keys: (batch.keys - idle.keys) / MEMORY_BATCH,
    },
    afterRetention,
  }
}

/** Sends `count` echo tasks, `concurrency` at a time; each must complete. */
async function sendEchoTasks(url, count, concurrency) {
  let sent = 0
  const sender = async () => {
    while (sent < count) {
      sent++
      const response = await fetch(`${url}/tasks/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...AUTH_HEADERS },
        body: SEND_BODY_HEAD + randomUUID() + SEND_BODY_TAIL,
      })
      const body = await response.text()
      if (!body.includes('"status":{"state":"completed"')) {
        throw new Error(`a memory-batch send answered ${response.status}: ${body.slice(0, 200)}`)
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, sender))
}

function printRedisReport(report) {
  const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(2)} MiB`
  const state = ({ keys, keyBytes, usedMemory }) =>
    `${keys} keys (${mib(keyBytes)}), used_memory ${mib(usedMemory)}`
  console.log(`Redis (ours-redis, TASK_RETENTION_SECONDS=${report.retentionSeconds}):`)
  console.log(`  before the first server started: ${state(report.before)}`)
  console.log(`  right after the load:            ${state(report.afterLoad)}`)
  console.log(`  once those tasks had expired:    ${state(report.idle)}`)
  console.log(`  after ${report.batch.tasks} more echo tasks:      ${state(report.batch)}`)
  console.log(`  once those had expired too:      ${state(report.afterRetention)}`)
  console.log(
    `  per finished echo task: ${Math.round(report.perTask.bytes)} B in its keys (MEMORY USAGE), ` +
      `${report.perTask.keys.toFixed(1)} keys (the task hash, its event stream, its context index); ` +
      `used_memory moved ${Math.round(report.perTask.usedMemoryBytes)} B per task`,
  )
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
