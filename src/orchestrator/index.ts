/** The orchestrator: delegate a skill to a registered agent, with failover. */
export { Orchestrator, canFailOver } from './orchestrator.js'
export type {
  AgentLookup,
  AgentToken,
  DelegateOptions,
  Delegation,
  DelegationInput,
  DelegationProgress,
  InputQuestion,
  OrchestratorOptions,
} from './orchestrator.js'
export {
  AllAgentsFailedError,
  DelegatedTaskFailedError,
  InputRequiredError,
  NoAgentForSkillError,
} from './errors.js'
export type { AgentFailure, AgentRef, UnhealthyAgent } from './errors.js'
export { DELEGATE_SKILL_FIELD, ORCHESTRATE_SKILL_ID, orchestrateSkill } from './skill.js'
export type { OrchestrateSkillOptions } from './skill.js'
