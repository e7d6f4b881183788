/** Registry entries for the tests that need one without reading a card. */
import type { AgentEntry } from '../../src/registry/entry.js'

/** An entry for agent `id`, registered and checked at 2026-01-01T00:00, due 30 s later. */
export const entry = (id: string, revision = 1, fields: Partial<AgentEntry> = {}): AgentEntry => ({
  id,
  url: `http://agent-${id}.test`,
  cardUrl: `http://agent-${id}.test/.well-known/agent-card.json`,
  name: `Agent ${id}`,
  dialect: 'jsonrpc-1.0',
  endpoint: `http://agent-${id}.test/a2a`,
  streaming: true,
  skills: [{ id: 'translate', name: 'Translate', tags: ['language'] }],
  health: 'healthy',
  consecutiveFailures: 0,
  registeredAt: '2026-01-01T00:00:00.000Z',
  lastCheckedAt: '2026-01-01T00:00:00.000Z',
  nextCheckAt: '2026-01-01T00:00:30.000Z',
  revision,
  ...fields,
})
