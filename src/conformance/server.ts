/**
 * The conformance agent (`npm run start:conformance`): the server with the TCK scenario skill
 * as its default skill, set up the way the official TCK probes an agent (see docs/protocol.md).
 * Any of these settings can still be overridden from the environment.
 */
import { fileURLToPath } from 'node:url'

const defaults: Record<string, string> = {
  PORT: '9999',
  AGENT_NAME: 'A2A Conformance Agent',
  AGENT_DESCRIPTION: 'Runs the scenarios of the official A2A TCK, keyed by messageId prefix',
  SKILL_MODULES: fileURLToPath(new URL('./tck-skill.js', import.meta.url)),
  BUNDLED_SKILLS: 'echo',
  DEFAULT_SKILL: 'tck-conformance',
  // The TCK reads the card without A2A-Version and validates it as a 1.0 card.
  AGENT_CARD_DEFAULT_VERSION: '1.0',
  // The TCK reuses one messageId per scenario for distinct messages within a run.
  MESSAGE_DEDUP: 'false',
}
for (const [name, value] of Object.entries(defaults)) process.env[name] ??= value

await import('../server.js')
