/**
 * AgentRegistry: the agents an orchestrator may delegate to. An agent is registered by URL (its
 * card is read and validated first), found by skill or tag, removed, and kept under periodic
 * health checks (see health-check.ts) that mark it unhealthy after failures and healthy again
 * when it answers, picking up a changed card on the way.
 */
import { HttpClient } from '../client/http.js'
import type { TokenProvider } from '../client/http.js'
import { resolveCard } from '../client/card.js'
import type { AgentCard } from '../client/card.js'
import { AgentNotFoundError, InvalidRequestError } from '../domain/errors.js'
import { readCardTwice, rejection } from './card-problem.js'
import { agentIdOf, cardFields, declaresSkill, hasTag } from './entry.js'
import type { AgentEntry } from './entry.js'
import { HealthChecker } from './health-check.js'
import type { HealthCheckSettings } from './health-check.js'
import { MemoryRegistryStore } from './memory-store.js'
import type { RegistryStore } from './store.js'

export interface AgentRegistryOptions extends Partial<HealthCheckSettings> {
  /** Where entries live (default: in memory). */
  store?: RegistryStore
  /** A token for reading cards of agents that protect them. */
  token?: TokenProvider
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch
  /** Logs check failures; default: silent. */
  log?: { warn(object: object, message: string): void }
}

export interface AgentFilter {
  skill?: string
  tag?: string
  healthy?: boolean
}

export const DEFAULT_HEALTH_CHECKS: HealthCheckSettings = {
  checkIntervalMs: 30_000,
  unhealthyAfter: 3,
  maxBackoffMs: 300_000,
  checkTimeoutMs: 5_000,
}

export class AgentRegistry {
  readonly store: RegistryStore
  readonly #http: HttpClient
  readonly #checker: HealthChecker

  constructor(options: AgentRegistryOptions = {}) {
    this.store = options.store ?? new MemoryRegistryStore()
    const settings: HealthCheckSettings = {
      checkIntervalMs: options.checkIntervalMs ?? DEFAULT_HEALTH_CHECKS.checkIntervalMs,
      unhealthyAfter: options.unhealthyAfter ?? DEFAULT_HEALTH_CHECKS.unhealthyAfter,
      maxBackoffMs: options.maxBackoffMs ?? DEFAULT_HEALTH_CHECKS.maxBackoffMs,
      checkTimeoutMs: options.checkTimeoutMs ?? DEFAULT_HEALTH_CHECKS.checkTimeoutMs,
    }
    this.#http = new HttpClient({
      timeoutMs: settings.checkTimeoutMs,
      ...(options.token !== undefined && { token: options.token }),
      ...(options.fetch && { fetch: options.fetch }),
    })
    this.#checker = new HealthChecker(
      this.store,
      settings,
      (url) => this.#readCard(url),
      options.log,
    )
  }

  /**
   * Reads the agent's card at `url` and registers it. Registering a URL again re-reads its card
   * and refreshes the entry (`created: false`). A card that cannot be used is refused with an
   * AgentCardRejectedError that says why (and which field, for a wrong shape).
   */
  async register(url: string): Promise<{ entry: AgentEntry; created: boolean }> {
    const byUrl = agentIdOfUrl(url)
    let card: AgentCard
    try {
      card = await this.#readCard(url)
    } catch (error) {
      throw rejection(url, error) ?? error
    }
    // The same agent under another URL (its base URL, and now its card's): the entry it has.
    const cardId = agentIdOf(card.source)
    const sameCard = (await this.store.list()).find(
      (entry) => entry.id !== byUrl && agentIdOf(entry.cardUrl) === cardId,
    )
    const id = sameCard?.id ?? byUrl
    const now = new Date()
    for (;;) {
      const existing = await this.store.get(id)
      const entry: AgentEntry = {
        id,
        // The URL it was first registered with stays the one shown.
        url: existing?.url ?? url,
        ...cardFields(card),
        health: 'healthy',
        consecutiveFailures: 0,
        registeredAt: existing?.registeredAt ?? now.toISOString(),
        lastCheckedAt: now.toISOString(),
        lastHealthyAt: now.toISOString(),
        nextCheckAt: new Date(now.getTime() + this.#checker.settings.checkIntervalMs).toISOString(),
        revision: (existing?.revision ?? 0) + 1,
      }
      // Another replica may register or check the same agent at once: retry on a lost race.
      if (existing === undefined ? await this.store.add(entry) : await this.store.replace(entry)) {
        return { entry, created: existing === undefined }
      }
    }
  }

  /** Entries in registration order, filtered by skill id, tag and health. */
  async list(filter: AgentFilter = {}): Promise<AgentEntry[]> {
    const entries = await this.store.list()
    return entries
      .filter((entry) => filter.skill === undefined || declaresSkill(entry, filter.skill))
      .filter((entry) => filter.tag === undefined || hasTag(entry, filter.tag))
      .filter(
        (entry) => filter.healthy === undefined || (entry.health === 'healthy') === filter.healthy,
      )
  }

  /** The healthy agents that declare the skill, in registration order. */
  findBySkill(skillId: string): Promise<AgentEntry[]> {
    return this.list({ skill: skillId, healthy: true })
  }

  /** The unhealthy agents that declare the skill (skipped by findBySkill). */
  unhealthyBySkill(skillId: string): Promise<AgentEntry[]> {
    return this.list({ skill: skillId, healthy: false })
  }

  findByTag(tag: string): Promise<AgentEntry[]> {
    return this.list({ tag, healthy: true })
  }

  /** The entry; AgentNotFoundError when no agent has this id. */
  async get(agentId: string): Promise<AgentEntry> {
    const entry = await this.store.get(agentId)
    if (!entry) throw new AgentNotFoundError(agentId)
    return entry
  }

  /** Removes the agent; AgentNotFoundError when no agent has this id. */
  async remove(agentId: string): Promise<void> {
    if (!(await this.store.remove(agentId))) throw new AgentNotFoundError(agentId)
  }

  /** Checks every agent whose check is due now (the timer does this by itself once started). */
  checkDue(): Promise<void> {
    return this.#checker.checkDue()
  }

  /** Starts the periodic health checks (timers are unref'ed). */
  start(): this {
    this.#checker.start()
    return this
  }

  /** Stops the checks, waits for one under way, and closes the store. */
  async close(): Promise<void> {
    await this.#checker.stop()
    await this.store.close()
  }

  #readCard(url: string): Promise<AgentCard> {
    return readCardTwice(() => resolveCard(this.#http, url))
  }
}

function agentIdOfUrl(url: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new InvalidRequestError('must be an http or https URL', 'url')
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new InvalidRequestError('must be an http or https URL', 'url')
  }
  // A card is public: fetch refuses a URL with credentials, and the registry would show them.
  if (parsed.username !== '' || parsed.password !== '') {
    throw new InvalidRequestError('must not include a user name or password', 'url')
  }
  return agentIdOf(url)
}
