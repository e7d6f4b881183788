/**
 * One load run with autocannon's programmatic API: fixed connections, fixed duration, an optional
 * warm-up run before it that is not counted. Returns the numbers the report needs.
 */
import autocannon from 'autocannon'
import { cpuMicros } from './cpu.js'

/**
 * @param {object} options
 * @param {string} options.url the server's base URL
 * @param {object} options.request method, path, headers, and body or setupRequest(request)
 * @param {(body: string) => boolean} [options.verify] a response whose body fails it is a mismatch
 * @param {number} options.connections
 * @param {number} options.duration seconds
 * @param {number} [options.warmup] seconds of load before the measured run; 0 for none
 * @param {number} [options.pid] the server's process: its CPU time per request is reported
 * @param {() => Promise<number | undefined>} [options.redisCpu] µs of CPU the server's Redis has
 *   used so far: its CPU time per request is reported too
 */
export async function measure({
  url,
  request,
  verify,
  connections,
  duration,
  warmup = 0,
  pid,
  redisCpu,
}) {
  const warm =
    warmup > 0 ? await run({ url, request, verify, connections, duration: warmup }) : null
  const redisBefore = await redisCpu?.()
  const cpuBefore = cpuMicros(pid)
  const result = await run({ url, request, verify, connections, duration })
  const cpuAfter = cpuMicros(pid)
  const redisAfter = await redisCpu?.()
  const perRequest = (before, after) =>
    before === undefined || after === undefined || result.requests.total === 0
      ? undefined
      : (after - before) / result.requests.total
  return {
    ...summarize(result),
    cpuUsPerRequest: perRequest(cpuBefore, cpuAfter),
    redisCpuUsPerRequest: perRequest(redisBefore, redisAfter),
    warmup: warm && failures(warm),
  }
}

function run({ url, request, verify, connections, duration }) {
  const latency = new LatencyHistogram()
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        duration,
        pipelining: 1,
        timeout: 10,
        // A copy: autocannon stores its built request on it. A setupRequest runs before every
        // request (e.g. for a fresh task id each time).
        requests: [{ ...request, headers: { ...request.headers } }],
        ...(verify && { verifyBody: verify }),
      },
      (error, result) =>
        error ? reject(error) : resolve({ ...result, latency: latency.summary() }),
    )
    // autocannon's own histogram keeps whole milliseconds; this one keeps 10 µs.
    instance.on('response', (_client, _status, _bytes, ms) => latency.record(ms))
  })
}

/** Response times in 10 µs buckets up to 10 s (slower ones count in the last bucket). */
class LatencyHistogram {
  static BUCKETS_PER_MS = 100
  counts = new Uint32Array(1_000_001)
  total = 0
  sum = 0

  record(ms) {
    const bucket = Math.min(
      Math.round(ms * LatencyHistogram.BUCKETS_PER_MS),
      this.counts.length - 1,
    )
    this.counts[bucket]++
    this.total++
    this.sum += ms
  }

  percentile(p) {
    const rank = Math.ceil((p / 100) * this.total)
    let seen = 0
    for (let bucket = 0; bucket < this.counts.length; bucket++) {
      seen += this.counts[bucket]
      if (seen >= rank && seen > 0) return bucket / LatencyHistogram.BUCKETS_PER_MS
    }
    return NaN
  }

  summary() {
    return {
      average: this.total ? this.sum / this.total : NaN,
      p50: this.percentile(50),
      p99: this.percentile(99),
      max: this.percentile(100),
    }
  }
}

/** The counts that make a run untrustworthy. */
function failures(result) {
  const ok = result.statusCodeStats?.['200']?.count ?? 0
  const responses = Object.values(result.statusCodeStats ?? {}).reduce((n, s) => n + s.count, 0)
  return {
    non2xx: result.non2xx,
    non200: responses - ok,
    errors: result.errors,
    timeouts: result.timeouts,
    mismatches: result.mismatches,
  }
}

function summarize(result) {
  return {
    rps: result.requests.mean,
    p50: result.latency.p50,
    p99: result.latency.p99,
    latencyMean: result.latency.average,
    latencyMax: result.latency.max,
    requests: result.requests.total,
    durationSeconds: result.duration,
    statusCodes: Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count]),
    ),
    ...failures(result),
  }
}

/** Whether a measured run (and its warm-up) had any failed request. */
export function failed(measurement) {
  const bad = (f) => f && f.non2xx + f.non200 + f.errors + f.timeouts + f.mismatches > 0
  return bad(measurement) || bad(measurement.warmup)
}
