/**
 * The authenticated extended Agent Card (1.0 `GetExtendedAgentCard`, REST
 * `GET /extendedAgentCard`, 0.3 `agent/getAuthenticatedExtendedCard`): the public card narrowed
 * to the skills the caller's scopes let it use, so a client sees what it may actually call.
 */
import type { AgentDeclaration } from '../../domain/agent.js'
import type { Caller } from '../../domain/caller.js'
import { missingScopes, requiredScopes } from '../../domain/caller.js'
import type { AgentEndpoints } from '../../protocol/a2a/endpoints.js'
import type { ProtocolVersion } from '../../protocol/a2a/versions.js'
import { renderV03Card } from '../../protocol/v03/card.js'
import { renderV10Card } from '../../protocol/v10/card.js'

export class ExtendedCards {
  constructor(
    private readonly agent: AgentDeclaration,
    private readonly endpoints: AgentEndpoints,
  ) {}

  render(version: ProtocolVersion, caller: Caller | undefined) {
    const skills = this.agent.skills.filter(
      (skill) =>
        caller === undefined || missingScopes(caller.scopes, requiredScopes(skill)).length === 0,
    )
    const options = { endpoints: this.endpoints, extendedCard: true }
    const agent = { ...this.agent, skills }
    return version === '1.0' ? renderV10Card(agent, options) : renderV03Card(agent, options)
  }
}
