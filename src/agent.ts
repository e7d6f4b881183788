/** Declares the agent from configuration and its skills: the source of every Agent Card. */
import type { Config } from './config.js'
import type { AgentDeclaration } from './domain/agent.js'
import { INVOKE_SCOPE, requiredScopes } from './domain/caller.js'
import type { Skill } from './skills/skill.js'

export function declareAgent(config: Config, skills: readonly Skill[]): AgentDeclaration {
  return {
    name: config.AGENT_NAME,
    description: config.AGENT_DESCRIPTION,
    url: config.PUBLIC_URL,
    version: config.AGENT_VERSION,
    ...(config.AGENT_DOCUMENTATION_URL && { documentationUrl: config.AGENT_DOCUMENTATION_URL }),
    ...(config.AGENT_PROVIDER_ORGANIZATION && {
      provider: {
        organization: config.AGENT_PROVIDER_ORGANIZATION,
        url: config.AGENT_PROVIDER_URL ?? config.PUBLIC_URL,
      },
    }),
    capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: true },
    // Every task endpoint takes a JWT bearer token (src/http/plugins/auth.ts).
    authSchemes: ['Bearer'],
    scopes: [INVOKE_SCOPE],
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: skills.map((skill) => {
      const { id, name, description, tags, examples, inputModes, outputModes, inputSchema } = skill
      return {
        id,
        name,
        description,
        tags,
        ...(examples && { examples }),
        ...(inputModes && { inputModes }),
        ...(outputModes && { outputModes }),
        ...(inputSchema && { inputSchema }),
        scopes: requiredScopes(skill),
      }
    }),
  }
}
