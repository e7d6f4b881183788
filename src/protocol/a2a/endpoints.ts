/** Where this agent serves each A2A binding: the URLs its cards publish. */
export interface AgentEndpoints {
  /** The one JSON-RPC endpoint (A2A 1.0 and 0.3, told apart by `A2A-Version`). */
  jsonRpcUrl: string
  /** The base URL of the A2A 1.0 HTTP+JSON binding. */
  restUrl: string
}

export interface CardOptions {
  endpoints: AgentEndpoints
  /** An authenticated extended card is configured (`capabilities.extendedAgentCard`). */
  extendedCard: boolean
}

/** The security scheme name the cards give each HTTP auth scheme of the declaration. */
export const schemeName = (scheme: string): string => scheme.toLowerCase()
