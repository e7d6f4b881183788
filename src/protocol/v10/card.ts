/** The A2A 1.0 Agent Card, rendered from the one AgentDeclaration. */
import type { AgentDeclaration, SkillCard } from '../../domain/agent.js'
import type { CardOptions } from '../a2a/endpoints.js'
import { schemeName } from '../a2a/endpoints.js'
import { agentSkill } from '../a2a/skill-card.js'

/** `Bearer` → an httpAuthSecurityScheme; the requirement lists every scheme with its scopes. */
function security(agent: AgentDeclaration) {
  const schemes = Object.fromEntries(
    agent.authSchemes.map((scheme) => [
      schemeName(scheme),
      {
        httpAuthSecurityScheme: {
          scheme,
          ...(scheme.toLowerCase() === 'bearer' && { bearerFormat: 'JWT' }),
        },
      },
    ]),
  )
  const requirements =
    agent.authSchemes.length === 0
      ? []
      : [
          {
            schemes: Object.fromEntries(
              agent.authSchemes.map((scheme) => [schemeName(scheme), { list: agent.scopes ?? [] }]),
            ),
          },
        ]
  return { schemes, requirements }
}

type Requirement = { schemes: Record<string, { list: string[] }> }

/** A skill's requirement: the agent's scopes plus the skill's own, for each scheme. */
const skillRequirements = (skill: SkillCard, requirements: Requirement[]): Requirement[] =>
  requirements.map(({ schemes }) => ({
    schemes: Object.fromEntries(
      Object.entries(schemes).map(([name, { list }]) => [
        name,
        { list: [...list, ...(skill.scopes ?? [])] },
      ]),
    ),
  }))

const skillToV10 = (skill: SkillCard, requirements: Requirement[]) => ({
  ...agentSkill(skill),
  ...(requirements.length > 0 && {
    securityRequirements: skillRequirements(skill, requirements),
  }),
})

export function renderV10Card(agent: AgentDeclaration, options: CardOptions) {
  const { jsonRpcUrl, restUrl } = options.endpoints
  const { schemes, requirements } = security(agent)
  return {
    name: agent.name,
    description: agent.description,
    // Ordered by preference: 1.0 first; the 0.3 entry tells older clients where they are served.
    supportedInterfaces: [
      { url: jsonRpcUrl, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: restUrl, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      { url: jsonRpcUrl, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ],
    ...(agent.provider && { provider: agent.provider }),
    version: agent.version,
    ...(agent.documentationUrl && { documentationUrl: agent.documentationUrl }),
    capabilities: {
      streaming: agent.capabilities.streaming,
      pushNotifications: agent.capabilities.pushNotifications,
      extendedAgentCard: options.extendedCard,
    },
    securitySchemes: schemes,
    securityRequirements: requirements,
    defaultInputModes: agent.defaultInputModes,
    defaultOutputModes: agent.defaultOutputModes,
    skills: agent.skills.map((skill) => skillToV10(skill, requirements)),
  }
}
