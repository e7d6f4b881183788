/**
 * The A2A 0.3 Agent Card, rendered from the one AgentDeclaration. It also lists the 1.0
 * `supportedInterfaces`, as the official SDK's does, so a client of either generation that
 * fetched it without `A2A-Version` still finds every binding.
 */
import type { AgentDeclaration, SkillCard } from '../../domain/agent.js'
import type { CardOptions } from '../a2a/endpoints.js'
import { schemeName } from '../a2a/endpoints.js'
import { agentSkill } from '../a2a/skill-card.js'
import { renderV10Card } from '../v10/card.js'

/** A skill's requirement: the agent's scopes plus the skill's own, for each scheme. */
const skillSecurity = (skill: SkillCard, security: Record<string, string[]>[]) =>
  security.map((requirement) =>
    Object.fromEntries(
      Object.entries(requirement).map(([name, scopes]) => [
        name,
        [...scopes, ...(skill.scopes ?? [])],
      ]),
    ),
  )

const skillToV03 = (skill: SkillCard, security: Record<string, string[]>[]) => ({
  ...agentSkill(skill),
  ...(security.length > 0 && { security: skillSecurity(skill, security) }),
})

export function renderV03Card(agent: AgentDeclaration, options: CardOptions) {
  const securitySchemes = Object.fromEntries(
    agent.authSchemes.map((scheme) => [
      schemeName(scheme),
      {
        type: 'http',
        scheme,
        ...(scheme.toLowerCase() === 'bearer' && { bearerFormat: 'JWT' }),
      },
    ]),
  )
  const security =
    agent.authSchemes.length === 0
      ? []
      : [
          Object.fromEntries(
            agent.authSchemes.map((scheme) => [schemeName(scheme), [...(agent.scopes ?? [])]]),
          ),
        ]
  return {
    protocolVersion: '0.3.0',
    name: agent.name,
    description: agent.description,
    url: options.endpoints.jsonRpcUrl,
    preferredTransport: 'JSONRPC',
    ...(agent.provider && { provider: agent.provider }),
    version: agent.version,
    ...(agent.documentationUrl && { documentationUrl: agent.documentationUrl }),
    capabilities: agent.capabilities,
    ...(security.length > 0 && { securitySchemes, security }),
    defaultInputModes: agent.defaultInputModes,
    defaultOutputModes: agent.defaultOutputModes,
    skills: agent.skills.map((skill) => skillToV03(skill, security)),
    supportsAuthenticatedExtendedCard: options.extendedCard,
    supportedInterfaces: renderV10Card(agent, options).supportedInterfaces,
  }
}
