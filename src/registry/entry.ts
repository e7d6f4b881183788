/**
 * One registered agent, as the registry stores and serves it: where it is, what its card
 * declared at the last successful read, and what the health checks found.
 */
import { createHash } from 'node:crypto'
import { z } from 'zod'
import type { AgentCard } from '../client/card.js'

export const RegisteredSkill = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  tags: z.array(z.string()),
})
export type RegisteredSkill = z.infer<typeof RegisteredSkill>

export const AgentHealth = z.enum(['healthy', 'unhealthy'])

export const AgentEntry = z.object({
  /** Derived from the URL, so registering the same URL twice names the same entry. */
  id: z.string(),
  /** The URL it was registered with (a base URL or the card's own URL). */
  url: z.string(),
  /** Where the card was read; the health checks read it there. */
  cardUrl: z.string(),
  name: z.string(),
  description: z.string().optional(),
  version: z.string().optional(),
  /** The dialect a client speaks to it, and where. */
  dialect: z.string(),
  endpoint: z.string(),
  streaming: z.boolean(),
  skills: z.array(RegisteredSkill),
  health: AgentHealth,
  /** Failed checks in a row; 0 after a check that succeeded. */
  consecutiveFailures: z.number().int(),
  /** Why the last check failed, while it keeps failing. */
  lastError: z.string().optional(),
  registeredAt: z.string(),
  lastCheckedAt: z.string(),
  lastHealthyAt: z.string().optional(),
  /** When the next health check is due (ISO time). */
  nextCheckAt: z.string(),
  /** Bumped on every write; a write based on an older revision is dropped. */
  revision: z.number().int(),
})
export type AgentEntry = z.infer<typeof AgentEntry>

/** A stable id for an agent URL: the same URL (up to trailing slashes and case of the host) → the same id. */
export function agentIdOf(url: string): string {
  const normalized = new URL(url.replace(/\/+$/, ''))
  return createHash('sha256').update(normalized.href.replace(/\/+$/, '')).digest('hex').slice(0, 16)
}

/** What the entry keeps of a card. */
export function cardFields(card: AgentCard) {
  return {
    cardUrl: card.source,
    name: card.name,
    ...(card.description !== undefined && { description: card.description }),
    ...(card.version !== undefined && { version: card.version }),
    dialect: card.dialect,
    endpoint: card.endpoint,
    streaming: card.streaming,
    skills: card.skills.map((skill) => ({
      id: skill.id,
      name: skill.name,
      ...(skill.description !== undefined && { description: skill.description }),
      tags: skill.tags ?? [],
    })),
  }
}

/** Whether the entry declares the skill / a skill with the tag. */
export const declaresSkill = (entry: AgentEntry, skillId: string) =>
  entry.skills.some((skill) => skill.id === skillId)
export const hasTag = (entry: AgentEntry, tag: string) =>
  entry.skills.some((skill) => skill.tags.includes(tag))
