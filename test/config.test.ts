import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../src/config.js'

/** The ConfigError `env` stops the start with (fails the test when it starts). */
function refusal(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env)
  } catch (error) {
    if (error instanceof ConfigError) return error
    throw error
  }
  throw new Error(`the configuration was accepted: ${JSON.stringify(env)}`)
}

describe('configuration from the environment', () => {
  it('starts with working defaults and no settings at all', () => {
    const config = loadConfig({})
    expect(config).toMatchObject({
      PORT: 3000,
      HOST: '127.0.0.1',
      PUBLIC_URL: 'http://localhost:3000',
      AGENT_NAME: 'Code Review Agent',
      BUNDLED_SKILLS: ['review-pr', 'echo'],
      SKILL_MODULES: [],
      BODY_LIMIT: 1_048_576,
    })
  })

  it('parses numbers, lists and URLs, and trims a trailing slash from PUBLIC_URL', () => {
    const config = loadConfig({
      PORT: '8080',
      PUBLIC_URL: 'https://agents.example.com/review/',
      SKILL_MODULES: './a.js, ./b.js',
      MAX_PARTS: '5',
    })
    expect(config.PORT).toBe(8080)
    expect(config.PUBLIC_URL).toBe('https://agents.example.com/review')
    expect(config.SKILL_MODULES).toEqual(['./a.js', './b.js'])
    expect(config.MAX_PARTS).toBe(5)
  })

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', AGENT_NAME: '' })).toMatchObject({
      PORT: 3000,
      AGENT_NAME: 'Code Review Agent',
    })
  })

  it('stops with a message naming each bad variable and its value', () => {
    const error = refusal({ PORT: '99999', PUBLIC_URL: 'not a url', LOG_LEVEL: 'loud' })
    const { problems } = error
    expect(problems).toHaveLength(3)
    expect(problems.find((p) => p.startsWith('PORT:'))).toMatch(/\(got "99999"\)$/)
    expect(problems.find((p) => p.startsWith('PUBLIC_URL:'))).toMatch(/\(got "not a url"\)$/)
    expect(problems.find((p) => p.startsWith('LOG_LEVEL:'))).toMatch(/\(got "loud"\)$/)
    expect(error.message).toContain('Invalid configuration:')
  })

  it('says what is wrong with a number, a choice or a URL', () => {
    const problems = (env: Record<string, string>) => refusal(env).problems
    expect(problems({ PORT: 'abc' })).toEqual(['PORT: must be a number (got "abc")'])
    expect(problems({ PORT: '70000' })).toEqual(['PORT: must be from 0 to 65535 (got "70000")'])
    expect(problems({ SEND_WAIT_MS: '1.5' })).toEqual([
      'SEND_WAIT_MS: must be a whole number (got "1.5")',
    ])
    // Past what a timer holds, a timeout would fire at once.
    for (const name of [
      'SKILL_TIMEOUT_MS',
      'SEND_WAIT_MS',
      'SHUTDOWN_GRACE_MS',
      'SSE_HEARTBEAT_MS',
    ]) {
      expect(problems({ [name]: '3000000000' })).toEqual([
        `${name}: must be from ${name === 'SSE_HEARTBEAT_MS' ? 100 : 0} to 2073600000 (got "3000000000")`,
      ])
    }
    expect(loadConfig({ SKILL_TIMEOUT_MS: '2073600000' }).SKILL_TIMEOUT_MS).toBe(2_073_600_000)
    expect(problems({ HOST: ' ', AGENT_NAME: '   ' })).toEqual([
      'HOST: must not be blank (got " ")',
      'AGENT_NAME: must not be blank (got "   ")',
    ])
    expect(loadConfig({ AGENT_VERSION: ' 2.0 ' }).AGENT_VERSION).toBe('2.0')
    expect(problems({ RATE_LIMIT_MAX: '-1' })).toEqual([
      'RATE_LIMIT_MAX: must be 0 or more (got "-1")',
    ])
    expect(problems({ ROLE: 'boss' })).toEqual([
      'ROLE: must be one of all, api, worker (got "boss")',
    ])
    expect(problems({ METRICS_ENABLED: 'yes' })).toEqual([
      'METRICS_ENABLED: must be one of true, false (got "yes")',
    ])
    expect(problems({ PUBLIC_URL: 'ftp://example.com' })).toEqual([
      'PUBLIC_URL: must be a URL starting with http:// or https:// (got "ftp://example.com")',
    ])
  })

  it('refuses a REDIS_URL whose database is not a whole number, which ioredis would misread', () => {
    for (const [url, database] of [
      ['redis://localhost:6379/abc', 'abc'],
      ['redis://localhost:6379?db=abc', 'abc'],
      ['redis://localhost:6379/-1', '-1'],
      ['redis://localhost:6379/1.5', '1.5'],
    ]) {
      expect(refusal({ REDIS_URL: url! }).message).toContain(
        `REDIS_URL: names database "${database}"; a database is a whole number, 0 or more`,
      )
    }
    expect(refusal({ REDIS_URL: 'not a url' }).message).toContain('REDIS_URL: must be a URL')
    expect(loadConfig({ REDIS_URL: 'redis://localhost:6379/3' }).REDIS_URL).toBe(
      'redis://localhost:6379/3',
    )
  })

  it('never shows a secret, nor the password of a URL, in its messages', () => {
    const message = (env: Record<string, string>) => refusal(env).message
    const short = message({ AUTH_JWT_SECRET: 'hunter2-too-short' })
    expect(short).toContain(
      'AUTH_JWT_SECRET: must be at least 32 characters (got 17 characters, not shown)',
    )
    expect(short).not.toContain('hunter2')
    const redis = message({ REDIS_URL: 'redis://default:hunter2@localhost:99999' })
    expect(redis).toContain('(got "redis://default:***@localhost:99999")')
    expect(redis).not.toContain('hunter2')
    // A password typed without percent-encoding: masked whole, up to the last "@".
    for (const password of ['hun@ter2', 'hun/ter2', 'hun?ter#2']) {
      const raw = message({ REDIS_URL: `redis://default:${password}@localhost:99999` })
      expect(raw).toContain('(got "redis://default:***@localhost:99999")')
      expect(raw).not.toContain('ter2')
    }
    const both = message({
      ORCHESTRATOR_AGENT_TOKEN: 'hunter2',
      ORCHESTRATOR_AGENT_TOKEN_FILE: '/run/secrets/token',
      NODE_ENV: 'production',
    })
    expect(both).toContain('ORCHESTRATOR_AGENT_TOKEN_FILE: set ORCHESTRATOR_AGENT_TOKEN or')
    expect(both).not.toContain('hunter2')
  })

  it('takes the TRUST_PROXY values Fastify takes, and names the setting for any other', () => {
    for (const value of [
      '10.0.0.0/8,127.0.0.1',
      'loopback, uniquelocal',
      '::1',
      'fd00::/8',
      '10.0.0.0/255.0.0.0',
    ]) {
      const { TRUST_PROXY } = loadConfig({ TRUST_PROXY: value })
      expect(() => Fastify({ trustProxy: TRUST_PROXY as string[] })).not.toThrow()
    }
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true)
    for (const value of [
      'yes',
      '10.0.0.0/33',
      '10.0.0.1/2/3',
      'fd00::/255.0.0.0',
      'proxy.internal',
    ]) {
      expect(refusal({ TRUST_PROXY: value }).problems).toEqual([
        `TRUST_PROXY: must be true, false, a hop count, or IP addresses and ranges (10.0.0.0/8), comma-separated (got "${value}")`,
      ])
    }
  })

  it('takes CORS_ORIGINS as * or origins as a browser sends them, and says how to write one', () => {
    expect(loadConfig({}).CORS_ORIGINS).toEqual([])
    expect(loadConfig({ CORS_ORIGINS: '*' }).CORS_ORIGINS).toEqual(['*'])
    expect(
      loadConfig({ CORS_ORIGINS: 'https://app.example.com, http://localhost:5173' }).CORS_ORIGINS,
    ).toEqual(['https://app.example.com', 'http://localhost:5173'])
    const problems = (value: string) => refusal({ CORS_ORIGINS: value }).problems
    expect(problems('https://app.example.com/')).toEqual([
      'CORS_ORIGINS: "https://app.example.com/" is not an origin as a browser sends it: write "https://app.example.com" (got "https://app.example.com/")',
    ])
    expect(problems('https://App.Example.com:443')).toEqual([
      'CORS_ORIGINS: "https://App.Example.com:443" is not an origin as a browser sends it: write "https://app.example.com" (got "https://App.Example.com:443")',
    ])
    expect(problems('app.example.com')).toEqual([
      'CORS_ORIGINS: "app.example.com" is not an origin: give scheme://host[:port], e.g. https://app.example.com, or * (got "app.example.com")',
    ])
    expect(problems('ftp://files.example.com')).toEqual([
      'CORS_ORIGINS: "ftp://files.example.com" is not a web origin: it must start with http:// or https:// (got "ftp://files.example.com")',
    ])
  })

  it('warns of a variable named like a setting, which is otherwise ignored', () => {
    expect(
      loadConfig({
        SKILL_MODULE: './skill.js',
        BUNDLE_SKILLS: 'echo',
        LOGLEVEL: 'debug',
        // Not like any setting, too short, or not upper case: the environment's own.
        HOME: '/root',
        HOSTNAME: 'vm',
        REDIS_PORT: 'tcp://10.0.0.1:6379',
        npm_config_port: '1',
      }).SETTING_WARNINGS,
    ).toEqual([
      'unknown setting SKILL_MODULE is ignored; did you mean SKILL_MODULES?',
      'unknown setting BUNDLE_SKILLS is ignored; did you mean BUNDLED_SKILLS?',
      'unknown setting LOGLEVEL is ignored; did you mean LOG_LEVEL?',
    ])
    expect(loadConfig({ SKILL_MODULES: './skill.js' }).SETTING_WARNINGS).toEqual([])
  })

  it('rejects a PUBLIC_URL that is not http or https', () => {
    expect(() => loadConfig({ PUBLIC_URL: 'ftp://example.com' })).toThrow(/PUBLIC_URL/)
  })

  it('reads the Redis settings, with defaults that keep one process the whole server', () => {
    expect(loadConfig({})).toMatchObject({ ROLE: 'all', REDIS_KEY_PREFIX: 'a2a:' })
    expect(loadConfig({})).not.toHaveProperty('REDIS_URL', expect.anything())
    const config = loadConfig({ REDIS_URL: 'rediss://user:secret@redis:6380/2', ROLE: 'worker' })
    expect(config).toMatchObject({ REDIS_URL: 'rediss://user:secret@redis:6380/2', ROLE: 'worker' })
  })

  it('stops when ROLE is api or worker without REDIS_URL, naming ROLE', () => {
    for (const ROLE of ['api', 'worker']) {
      expect(() => loadConfig({ ROLE })).toThrow(
        `ROLE: needs REDIS_URL: without Redis, one process is the whole server (ROLE=all) (got "${ROLE}")`,
      )
    }
  })

  it('refuses a REDIS_KEY_PREFIX with a brace and a REDIS_URL that is not redis', () => {
    expect(() => loadConfig({ REDIS_KEY_PREFIX: 'a2a:{x}:' })).toThrow(/REDIS_KEY_PREFIX: must not/)
    expect(() => loadConfig({ REDIS_URL: 'http://redis:6379' })).toThrow(/REDIS_URL/)
  })
})
