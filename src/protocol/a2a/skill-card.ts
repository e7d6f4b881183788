/** A skill as the A2A 0.3 and 1.0 cards both show it (AgentSkill), before each adds its security. */
import type { SkillCard } from '../../domain/agent.js'

export const agentSkill = (skill: SkillCard) => ({
  id: skill.id,
  name: skill.name,
  description: skill.description,
  tags: skill.tags,
  ...(skill.examples && { examples: skill.examples }),
  ...(skill.inputModes && { inputModes: skill.inputModes }),
  ...(skill.outputModes && { outputModes: skill.outputModes }),
})
