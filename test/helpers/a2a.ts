/** Fixtures for the A2A 0.3/1.0 dialect tests: a task, an agent declaration, endpoints. */
import type { AgentDeclaration } from '../../src/domain/agent.js'
import type { Task } from '../../src/domain/model.js'

const timestamp = '2026-01-01T00:00:00.000Z'

export const sampleTask = (overrides: Partial<Task> = {}): Task => ({
  id: 't-1',
  contextId: 'c-1',
  skillId: 'echo',
  status: {
    state: 'completed',
    timestamp,
    message: { messageId: 'a-1', role: 'agent', parts: [{ kind: 'text', text: 'done' }] },
  },
  history: [
    { messageId: 'u-1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] },
    { messageId: 'a-1', role: 'agent', parts: [{ kind: 'text', text: 'done' }] },
  ],
  artifacts: [{ artifactId: 'art-1', name: 'echo', parts: [{ kind: 'data', data: { n: 1 } }] }],
  transitions: [],
  requestHash: 'h',
  createdAt: timestamp,
  updatedAt: timestamp,
  ...overrides,
})

export const agent: AgentDeclaration = {
  name: 'Test Agent',
  description: 'for tests',
  url: 'https://agent.example',
  version: '2.0.0',
  capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: true },
  authSchemes: [],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [
    {
      id: 'echo',
      name: 'Echo',
      description: 'echoes',
      tags: ['t'],
      inputSchema: { type: 'object' },
    },
  ],
}

export const endpoints = {
  jsonRpcUrl: 'https://agent.example/a2a/jsonrpc',
  restUrl: 'https://agent.example/a2a/rest',
}
