import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'

describe('the audit settings', () => {
  it('audits to stdout without Redis and to the shared stream with it, by default', () => {
    expect(loadConfig({})).toMatchObject({
      AUDIT_SINK: 'stdout',
      AUDIT_STREAM_MAXLEN: 100_000,
      AUDIT_QUEUE_MAX: 10_000,
    })
    expect(loadConfig({ REDIS_URL: 'redis://redis:6379' })).toMatchObject({ AUDIT_SINK: 'redis' })
    expect(loadConfig({ REDIS_URL: 'redis://redis:6379', AUDIT_SINK: 'off' })).toMatchObject({
      AUDIT_SINK: 'off',
    })
  })

  it('stops when a sink lacks what it needs, naming AUDIT_SINK', () => {
    expect(() => loadConfig({ AUDIT_SINK: 'redis' })).toThrow(
      'AUDIT_SINK: redis needs REDIS_URL (got "redis")',
    )
    expect(() => loadConfig({ AUDIT_SINK: 'file' })).toThrow(
      'AUDIT_SINK: file needs AUDIT_FILE (got "file")',
    )
    expect(() => loadConfig({ AUDIT_SINK: 'syslog' })).toThrow(
      'AUDIT_SINK: must be one of stdout, file, redis, off (got "syslog")',
    )
    expect(() => loadConfig({ AUDIT_STREAM_MAXLEN: '10' })).toThrow(/AUDIT_STREAM_MAXLEN/)
  })
})
