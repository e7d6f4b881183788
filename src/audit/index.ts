/**
 * The audit trail a process writes, chosen by the settings (AUDIT_SINK and friends), and what
 * the rest of the server needs from src/audit. See docs/security.md, "Audit log".
 */
import type { Logger } from 'pino'
import type { Config } from '../config.js'
import { ConfigError } from '../domain/config-error.js'
import { connectionName, connectRedis } from '../store/redis/connection.js'
import { FileAuditSink } from './sinks/file.js'
import { RedisAuditSink } from './sinks/redis.js'
import { StdoutAuditSink } from './sinks/stdout.js'
import type { AuditSink } from './sink.js'
import { AuditTrail } from './trail.js'

export { taskRecords } from './task-records.js'
export { AuditEvent, AuditRecord, GENESIS } from './record.js'
export type { AuditEntry, AuditEventName, ChainHead } from './record.js'
export { AuditTrail } from './trail.js'
export type { AuditStats } from './trail.js'
export { verifyChain } from './verify.js'
export type { Verdict } from './verify.js'

/** Opens the configured sink (a file that cannot be opened stops the start) and its trail. */
export async function openAuditTrail(config: Config, log: Logger): Promise<AuditTrail> {
  const sink = sinkFor(config, log)
  if (sink) {
    try {
      await sink.open()
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      throw new ConfigError([`AUDIT_FILE: cannot open "${config.AUDIT_FILE}": ${reason}`])
    }
  }
  return new AuditTrail(sink, log, { queueMax: config.AUDIT_QUEUE_MAX })
}

function sinkFor(config: Config, log: Logger): AuditSink | undefined {
  switch (config.AUDIT_SINK) {
    case 'off':
      return undefined
    case 'stdout':
      return new StdoutAuditSink()
    case 'file':
      return new FileAuditSink(config.AUDIT_FILE!, log)
    case 'redis': {
      const redis = connectRedis(
        config.REDIS_URL!,
        connectionName(config.REDIS_KEY_PREFIX, 'audit'),
      )
      // The trail logs failed writes; the connection's own errors would only repeat them.
      redis.on('error', () => undefined)
      return new RedisAuditSink({
        redis,
        prefix: config.REDIS_KEY_PREFIX,
        maxLength: config.AUDIT_STREAM_MAXLEN,
        log,
      })
    }
  }
}
