/** The Agent Card in the brief's shape, served at /.well-known/agent.json. */
import type { AgentDeclaration, SkillCard } from '../../domain/agent.js'

/** The brief names modes ("text", "data", "file"); the declaration holds media types. */
function modeNames(mediaTypes: readonly string[]): string[] {
  const names = mediaTypes.map((type) =>
    type.startsWith('text/') ? 'text' : type === 'application/json' ? 'data' : 'file',
  )
  return [...new Set(names)]
}

const skillToSeed = (skill: SkillCard, agent: AgentDeclaration) => ({
  id: skill.id,
  name: skill.name,
  description: skill.description,
  tags: skill.tags,
  ...(skill.examples && { examples: skill.examples }),
  inputModes: modeNames(skill.inputModes ?? agent.defaultInputModes),
  outputModes: modeNames(skill.outputModes ?? agent.defaultOutputModes),
  ...(skill.inputSchema && { inputSchema: skill.inputSchema }),
})

export function renderSeedCard(agent: AgentDeclaration) {
  return {
    name: agent.name,
    description: agent.description,
    url: agent.url,
    ...(agent.provider && { provider: agent.provider }),
    version: agent.version,
    ...(agent.documentationUrl && { documentationUrl: agent.documentationUrl }),
    capabilities: agent.capabilities,
    authentication: { schemes: agent.authSchemes, credentials: null },
    defaultInputModes: modeNames(agent.defaultInputModes),
    defaultOutputModes: modeNames(agent.defaultOutputModes),
    skills: agent.skills.map((skill) => skillToSeed(skill, agent)),
  }
}
