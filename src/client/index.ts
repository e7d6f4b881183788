/**
 * The calling side of A2A: A2AClient, its card, results, events and errors. The package's
 * `a2a-fastify/client` entry: it loads none of the server (Fastify, Redis, logging).
 */
export { A2AClient } from './client.js'
export type { A2AClientOptions, WaitOptions } from './client.js'
export type { BackoffOptions } from './backoff.js'
export { A2A_CARD_PATH, SEED_CARD_PATH, readCard, resolveCard } from './card.js'
export type { AgentCard, CardSkill, ProtocolVersion, ResolveOptions } from './card.js'
export {
  A2AClientError,
  A2ATimeoutError,
  AgentCardError,
  AgentError,
  AgentUnreachableError,
  InvalidAgentResponseError,
  SkillNotDeclaredError,
  StreamInterruptedError,
  StreamingNotSupportedError,
  TokenProviderError,
} from './errors.js'
export type { AgentCardProblem } from './errors.js'
export type { CallOptions, TokenProvider } from './http.js'
export type {
  ArtifactUpdateEvent,
  RemoteMessage,
  RemoteTask,
  SendInput,
  SendResult,
  StatusUpdateEvent,
  StreamEvent,
} from './model.js'
export type { Dialect, SendOptions } from './transport.js'
export type { Artifact, Message, Part, TaskState, TaskStatus } from '../domain/model.js'
