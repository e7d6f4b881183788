/**
 * The Redis the benchmark runs the Redis-backed servers against: a private `redis-server` on a
 * free 127.0.0.1 port (no persistence, so its numbers are the servers' and not the disk's), or
 * BENCH_REDIS_URL when set. Also what the memory report needs: keys under a prefix, used_memory,
 * and waiting until finished tasks have expired.
 */
import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import process from 'node:process'
import { setTimeout as sleep } from 'node:timers/promises'
import { Redis } from 'ioredis'
import { HOST, freePort, track } from './servers.js'

/** Resolves with { url, client, stop() }. */
export async function startBenchRedis() {
  if (process.env.BENCH_REDIS_URL) {
    const url = process.env.BENCH_REDIS_URL
    const client = new Redis(url)
    return { url, client, private: false, stop: async () => client.quit() }
  }
  const port = await freePort()
  const dir = await mkdtemp(join(tmpdir(), 'a2a-bench-redis-'))
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', HOST, '--dir', dir, '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  track(child)
  await new Promise((resolve, reject) => {
    let output = ''
    child.once('error', (error) =>
      reject(new Error(`cannot start redis-server (set BENCH_REDIS_URL?): ${error.message}`)),
    )
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output}`)))
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      output += chunk
      if (output.includes('Ready to accept connections')) resolve()
    })
  })
  const url = `redis://${HOST}:${port}`
  const client = new Redis(url)
  return {
    url,
    client,
    private: true,
    async stop() {
      await client.quit()
      child.kill('SIGTERM')
      await new Promise((resolve) => child.once('exit', resolve))
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/** The keys under `prefix`, a SCAN batch at a time. */
async function* keyBatches(client, prefix) {
  let cursor = '0'
  do {
    const [next, batch] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000)
    yield batch
    cursor = next
  } while (cursor !== '0')
}

export async function keysUnder(client, prefix) {
  let count = 0
  for await (const batch of keyBatches(client, prefix)) count += batch.length
  return count
}

/**
 * The keys under `prefix`, and the bytes Redis reports for them (MEMORY USAGE, every element
 * counted): unlike used_memory, untouched by what the allocator, client buffers and the Lua
 * cache hold or give back meanwhile, so the difference of two readings is what those keys
 * gained.
 */
export async function keysAndBytesUnder(client, prefix) {
  let keys = 0
  let bytes = 0
  for await (const batch of keyBatches(client, prefix)) {
    keys += batch.length
    const pipeline = client.pipeline()
    for (const key of batch) pipeline.memory('USAGE', key, 'SAMPLES', 0)
    // A key that expired between SCAN and MEMORY USAGE answers null: it holds nothing.
    for (const [error, usage] of (await pipeline.exec()) ?? []) if (!error) bytes += usage ?? 0
  }
  return { keys, bytes }
}

export async function usedMemory(client) {
  return Number(/used_memory:(\d+)/.exec(await client.info('memory'))[1])
}

/**
 * µs of CPU (user + system, all its threads) the Redis server has used since it started, from
 * INFO: it tells what a server's requests cost Redis, wherever that Redis runs.
 */
export async function redisCpuMicros(client) {
  const info = await client.info('cpu')
  const seconds = (field) => Number(new RegExp(`${field}:([\\d.]+)`).exec(info)?.[1])
  const total = seconds('used_cpu_user') + seconds('used_cpu_sys')
  return Number.isNaN(total) ? undefined : total * 1e6
}

/** Waits until at most `keys` keys are left under `prefix`; resolves with how many there are. */
export async function drained(client, prefix, keys, timeoutMs) {
  const deadline = Date.now() + timeoutMs
  let count
  while ((count = await keysUnder(client, prefix)) > keys && Date.now() < deadline) {
    await sleep(250)
  }
  return count
}
