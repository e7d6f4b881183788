/**
 * The one declaration of the agent: who it is, what it can do, and its skills. Every Agent Card
 * (the brief's, 0.3's and 1.0's) is rendered from this.
 */

/** A JSON Schema (draft 2020-12) for a skill's data input, published on the Agent Card. */
export type JsonSchema = Record<string, unknown>

/** What the Agent Card says about a skill. */
export interface SkillCard {
  id: string
  name: string
  description: string
  tags: string[]
  examples?: string[]
  /** Media types; the agent's defaults apply when absent. */
  inputModes?: string[]
  outputModes?: string[]
  inputSchema?: JsonSchema
  /**
   * The scopes a caller's token needs to use this skill (all of them). Absent means
   * `skill:<id>`; `[]` opens the skill to every caller with `a2a:invoke`.
   */
  scopes?: string[]
}

export interface AgentDeclaration {
  name: string
  description: string
  /** The public base URL of this agent. */
  url: string
  version: string
  documentationUrl?: string
  provider?: { organization: string; url: string }
  capabilities: {
    streaming: boolean
    pushNotifications: boolean
    stateTransitionHistory: boolean
  }
  /** HTTP authentication schemes every task endpoint requires (e.g. "Bearer"); empty when open. */
  authSchemes: string[]
  /** The scopes every protected operation requires (e.g. `a2a:invoke`). */
  scopes?: string[]
  /** Media types. */
  defaultInputModes: string[]
  defaultOutputModes: string[]
  skills: SkillCard[]
}
