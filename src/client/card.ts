/**
 * Agent Card resolution: fetch the card (the A2A card at /.well-known/agent-card.json, the
 * brief's at /.well-known/agent.json), validate it, and read from it the dialect to speak and
 * where: a card with `supportedInterfaces` or `protocolVersion` means A2A JSON-RPC at the URL
 * it names; the brief's card (neither) means the seed dialect at the card's `url`.
 */
import { z } from 'zod'
import { issueList, plainly } from '../domain/issue-messages.js'
import { AgentCardError, AgentError, SkillNotDeclaredError } from './errors.js'
import { agentErrorOf, withStatus } from './agent-error.js'
import type { CallOptions, HttpClient } from './http.js'
import type { Dialect } from './transport.js'

export const A2A_CARD_PATH = '/.well-known/agent-card.json'
export const SEED_CARD_PATH = '/.well-known/agent.json'

const CardSkill = z.object({
  id: z.string().min(1),
  name: z.string(),
  description: z.string().optional(),
  tags: z.array(z.string()).optional(),
  examples: z.array(z.string()).optional(),
  inputModes: z.array(z.string()).optional(),
  outputModes: z.array(z.string()).optional(),
  inputSchema: z.record(z.string(), z.unknown()).optional(),
})
export type CardSkill = z.infer<typeof CardSkill>

const CardBase = z.object({
  name: z.string().min(1),
  description: z.string().optional(),
  version: z.string().optional(),
  capabilities: z.object({ streaming: z.boolean().optional() }).optional(),
  skills: z.array(CardSkill),
})

const AgentInterface = z.object({
  url: z.url(),
  protocolBinding: z.string(),
  protocolVersion: z.string(),
})

/** A2A 1.0 (and a 0.3 card that lists the 1.0 interfaces too, as the official SDK's does). */
const InterfacesCard = CardBase.extend({ supportedInterfaces: z.array(AgentInterface).min(1) })
/** A2A 0.2.5–0.3: one URL, its transport, and the protocol version. */
const V03Card = CardBase.extend({
  url: z.url(),
  protocolVersion: z.string(),
  preferredTransport: z.string().optional(),
  additionalInterfaces: z.array(z.object({ url: z.url(), transport: z.string() })).optional(),
})
/** The brief's card: no protocol version; the tasks live under `url`. */
const SeedCard = CardBase.extend({
  url: z.url(),
  authentication: z.object({ schemes: z.array(z.string()) }).nullish(),
})

export type ProtocolVersion = '1.0' | '0.3'

/** A validated card and what the client reads from it. */
export interface AgentCard {
  name: string
  description: string | undefined
  version: string | undefined
  /** The dialect the client speaks to this agent. */
  dialect: Dialect
  /** Where: the JSON-RPC endpoint, or the base of the seed dialect's /tasks routes. */
  endpoint: string
  streaming: boolean
  skills: CardSkill[]
  /** Where the card was read. */
  source: string
  /** The card as the agent sent it. */
  raw: unknown
}

export interface CardChoice {
  /** The A2A version to speak when the card offers both (default: the card's order). */
  protocolVersion?: ProtocolVersion
}

const majorMinor = (version: string) => /^(\d+\.\d+)/.exec(version)?.[1]

const issuesOf = (error: z.ZodError) => issueList(error, '(card)')

function parse<T extends z.ZodType>(schema: T, raw: unknown, source: string): z.infer<T> {
  const result = schema.safeParse(raw, plainly)
  if (!result.success) {
    const field = result.error.issues[0]?.path.join('.') || undefined
    throw new AgentCardError(source, issuesOf(result.error), {
      problem: 'invalid-card',
      ...(field !== undefined && { field }),
    })
  }
  return result.data
}

/** Reads a card body the agent served at `source`. */
export function readCard(raw: unknown, source: string, choice: CardChoice = {}): AgentCard {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new AgentCardError(source, 'the card is not a JSON object')
  }
  const common = (card: z.infer<typeof CardBase>) => ({
    name: card.name,
    description: card.description,
    version: card.version,
    streaming: card.capabilities?.streaming === true,
    skills: card.skills,
    source,
    raw,
  })
  if ('supportedInterfaces' in raw) {
    const card = parse(InterfacesCard, raw, source)
    const offered = card.supportedInterfaces.map((i) => ({
      url: i.url,
      binding: i.protocolBinding,
      version: majorMinor(i.protocolVersion),
    }))
    const spoken = offered.filter(
      (i) => i.binding === 'JSONRPC' && (i.version === '1.0' || i.version === '0.3'),
    )
    const chosen = spoken.find((i) => i.version === choice.protocolVersion) ?? spoken[0]
    if (chosen === undefined) {
      const list = offered.map((i) => `${i.binding} ${i.version ?? '?'}`).join(', ')
      throw new AgentCardError(
        source,
        `it offers no interface this client speaks (JSONRPC 1.0 or 0.3), only: ${list}`,
        { problem: 'unsupported' },
      )
    }
    return {
      ...common(card),
      dialect: `jsonrpc-${chosen.version as ProtocolVersion}`,
      endpoint: chosen.url,
    }
  }
  if ('protocolVersion' in raw) {
    const card = parse(V03Card, raw, source)
    const transport = card.preferredTransport ?? 'JSONRPC'
    const url =
      transport === 'JSONRPC'
        ? card.url
        : card.additionalInterfaces?.find((i) => i.transport === 'JSONRPC')?.url
    if (url === undefined || !card.protocolVersion.startsWith('0.')) {
      throw new AgentCardError(
        source,
        `it offers ${transport} at protocol version ${card.protocolVersion}; this client speaks JSONRPC 0.3 or 1.0`,
        { problem: 'unsupported' },
      )
    }
    return { ...common(card), dialect: 'jsonrpc-0.3', endpoint: url }
  }
  const card = parse(SeedCard, raw, source)
  return { ...common(card), dialect: 'seed', endpoint: card.url.replace(/\/+$/, '') }
}

/** The skill the card declares under `skillId`, or a SkillNotDeclaredError naming the others. */
export function declaredSkill(card: AgentCard, skillId: string): CardSkill {
  const skill = card.skills.find((s) => s.id === skillId)
  if (skill === undefined) {
    throw new SkillNotDeclaredError(
      skillId,
      card.skills.map((s) => s.id),
    )
  }
  return skill
}

export interface ResolveOptions extends CardChoice, CallOptions {
  /** Which card to read first when the agent serves both (the other is the fallback). */
  dialect?: 'a2a' | 'seed'
}

/** Options from JavaScript are not checked by the compiler: a misspelt choice would be ignored. */
function checkChoice({ dialect, protocolVersion }: ResolveOptions): void {
  if (dialect !== undefined && dialect !== 'a2a' && dialect !== 'seed') {
    throw new TypeError(
      `dialect must be 'a2a' or 'seed', not ${JSON.stringify(dialect)} (JSON-RPC 0.3 is protocolVersion: '0.3')`,
    )
  }
  if (protocolVersion !== undefined && protocolVersion !== '1.0' && protocolVersion !== '0.3') {
    throw new TypeError(
      `protocolVersion must be '1.0' or '0.3', not ${JSON.stringify(protocolVersion)}`,
    )
  }
}

/** An agent's URL is the caller's to get right: a mistake there is no unreachable agent. */
function checkUrl(url: string): void {
  let protocol: string | undefined
  try {
    protocol = new URL(url).protocol
  } catch {
    protocol = undefined
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new TypeError(`url must be an absolute http or https URL, not ${JSON.stringify(url)}`)
  }
}

/**
 * Fetches and reads the card. `url` is the agent's base URL (both well-known paths are tried,
 * the preferred first; a 404 moves on to the next) or the card's own URL (ending in `.json`).
 */
export async function resolveCard(
  http: HttpClient,
  url: string,
  options: ResolveOptions = {},
): Promise<AgentCard> {
  checkChoice(options)
  checkUrl(url)
  const base = url.replace(/\/+$/, '')
  const paths =
    options.dialect === 'seed' ? [SEED_CARD_PATH, A2A_CARD_PATH] : [A2A_CARD_PATH, SEED_CARD_PATH]
  const candidates = base.endsWith('.json') ? [base] : paths.map((path) => `${base}${path}`)
  let lastError: unknown
  for (const source of candidates) {
    const reply = await http.text(
      {
        method: 'GET',
        url: source,
        // The A2A card in its 1.0 shape where the agent serves both; older agents ignore this.
        ...(source.endsWith(A2A_CARD_PATH) && { headers: { 'a2a-version': '1.0' } }),
      },
      options,
    )
    if (reply.status === 404 || reply.status === 405) {
      lastError = agentErrorOf(reply.status, reply.body, reply.headers)
      continue
    }
    if (reply.status < 200 || reply.status >= 300) {
      const error = agentErrorOf(reply.status, reply.body, reply.headers)
      throw new AgentCardError(source, withStatus(error), {
        cause: error,
        problem: 'http-error',
      })
    }
    let raw: unknown
    try {
      raw = JSON.parse(reply.body)
    } catch {
      throw new AgentCardError(source, 'the body is not JSON', { problem: 'not-json' })
    }
    return readCard(raw, source, options)
  }
  const reason = lastError instanceof AgentError ? withStatus(lastError) : 'not found'
  throw new AgentCardError(candidates.join(' or '), reason, {
    cause: lastError,
    problem: 'not-found',
  })
}
