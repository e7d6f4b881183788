/**
 * What the server warns of at start: settings it runs with but should not, in production. Each
 * warning names the setting and what to set instead; a production server set as docs/security.md
 * says gets none, and development is left in peace.
 */
import { describe, expect, it } from 'vitest'
import { configFrom } from '../src/config.js'
import { startWarnings } from '../src/start-warnings.js'
import { testApp } from './helpers/app.js'
import { keptLog } from './helpers/log.js'

const SECRET = 'a-production-secret-of-at-least-32-characters'
const production = {
  NODE_ENV: 'production',
  AUTH_JWT_SECRET: SECRET,
  PUBLIC_URL: 'https://agents.example.com',
}
const warningsFor = (settings: Record<string, string>) =>
  startWarnings(configFrom({ ...production, ...settings }))

describe('start warnings', () => {
  it('are none for a production server set as the docs say', () => {
    expect(warningsFor({ CORS_ORIGINS: 'https://app.example.com', TRUST_PROXY: '1' })).toEqual([])
  })

  it('name a plain-http PUBLIC_URL, CORS for any origin, a trusting proxy setting, no rate limit and no audit', () => {
    const said = warningsFor({
      PUBLIC_URL: 'http://agents.example.com',
      CORS_ORIGINS: '*',
      TRUST_PROXY: 'true',
      RATE_LIMIT_MAX: '0',
      AUDIT_SINK: 'off',
    })
    expect(said.map((warning) => warning.split(':')[0])).toEqual([
      'PUBLIC_URL is plain http (http',
      'CORS_ORIGINS is *',
      'TRUST_PROXY is true',
      'RATE_LIMIT_MAX is 0',
      'AUDIT_SINK is off',
    ])
    expect(said[0]).toBe(
      'PUBLIC_URL is plain http (http://agents.example.com): the Agent Cards send clients there, and their tokens and messages cross the network in clear; serve HTTPS (a TLS-terminating proxy will do) and set PUBLIC_URL to its https:// address',
    )
  })

  it('leave development, and a PUBLIC_URL on this machine, alone', () => {
    const development = { CORS_ORIGINS: '*', TRUST_PROXY: 'true', RATE_LIMIT_MAX: '0' }
    expect(startWarnings(configFrom({ AUTH_JWT_SECRET: SECRET, ...development }))).toEqual([])
    expect(warningsFor({ PUBLIC_URL: 'http://localhost:3000' })).toEqual([])
  })

  it('say when the orchestrate skill has no token to call agents with', () => {
    const hub = { BUNDLED_SKILLS: 'echo,orchestrate' }
    expect(startWarnings(configFrom({ AUTH_JWT_SECRET: SECRET, ...hub }))).toEqual([
      'the orchestrate skill calls registered agents without a token (ORCHESTRATOR_AGENT_TOKEN and ORCHESTRATOR_AGENT_TOKEN_FILE are unset): every agent that verifies tokens will refuse it; give it a token for them',
    ])
    expect(warningsFor({ ...hub, ORCHESTRATOR_AGENT_TOKEN: 'a.b.c' })).toEqual([])
  })

  it('are logged at warn when the server starts', async () => {
    const { lines, logger } = keptLog()
    const app = await testApp({ ...production, AUDIT_SINK: 'off' }, { logger })
    await app.close()
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: 'AUDIT_SINK is off: no audit record is kept of who did what; choose stdout, file or redis',
      }),
    )
  })
})
