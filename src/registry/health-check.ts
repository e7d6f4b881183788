/**
 * Periodic health checks. Each agent's check reads its card (the cheapest honest probe: the
 * card is what an orchestrator needs anyway, and a changed card is picked up on the way).
 *
 * - A check that succeeds marks the agent healthy, resets its failures, stores its current card,
 *   and schedules the next check one interval later.
 * - A check that fails counts a failure; after `unhealthyAfter` failures in a row the agent is
 *   unhealthy. Until then the check is retried at the regular interval (so an outage is seen
 *   within `unhealthyAfter` intervals); once unhealthy, the delay doubles with each further
 *   failure, up to `maxBackoffMs`, so a dead agent is not probed at full rate forever.
 * - Several replicas share one Redis registry: each wakes when a check is due, but an agent is
 *   checked only by the one replica that claims that check (SET NX PX on a key naming the agent
 *   and the due time, for the check's timeout plus a second); the result is written only if
 *   the entry did not change meanwhile (compare-and-set on its revision).
 */
import { AgentCardError, AgentError } from '../client/errors.js'
import { ServiceUnavailableError } from '../domain/errors.js'
import { cardFields } from './entry.js'
import type { AgentEntry } from './entry.js'
import type { AgentCard } from '../client/card.js'
import { cardProblemOf } from './card-problem.js'
import type { RegistryStore } from './store.js'

export interface HealthCheckSettings {
  /** Between two checks of a healthy agent, in ms. */
  checkIntervalMs: number
  /** Failed checks in a row that make an agent unhealthy. */
  unhealthyAfter: number
  /** The longest delay between two checks of an unhealthy agent, in ms. */
  maxBackoffMs: number
  /** How long one card read may take, in ms. */
  checkTimeoutMs: number
}

type Log = { warn(object: object, message: string): void }

export class HealthChecker {
  #started = false
  #timer: NodeJS.Timeout | undefined
  #running: Promise<void> | undefined

  constructor(
    private readonly store: RegistryStore,
    readonly settings: HealthCheckSettings,
    private readonly readCard: (url: string) => Promise<AgentCard>,
    private readonly log?: Log,
  ) {}

  /**
   * Wakes when the next check is due, and at least once an interval: an agent registered
   * meanwhile (here or on another replica) is due an interval after its registration, so no
   * wake-up in between is needed. A check another replica holds is looked at again after
   * `#retryMs`, in case that replica died before writing its result.
   */
  start(): void {
    if (this.#started) return
    this.#started = true
    this.#wakeIn(this.#retryMs)
  }

  async stop(): Promise<void> {
    this.#started = false
    clearTimeout(this.#timer)
    await this.#running
  }

  /** Checks, concurrently, every agent whose check is due. */
  async checkDue(): Promise<void> {
    await this.#checkDue()
  }

  /** The shortest wait between two wake-ups: a quarter interval, within 25 ms … 1 s. */
  get #retryMs(): number {
    return Math.min(1_000, Math.max(25, Math.floor(this.settings.checkIntervalMs / 4)))
  }

  #wakeIn(delayMs: number): void {
    const timer = setTimeout(() => {
      this.#running = this.#checkDue()
        .catch((error: unknown) => {
          // A store that cannot be read (Redis away) is no failed check: no agent was probed,
          // perhaps none is registered, and the store's connection logs the outage already.
          if (!(error instanceof ServiceUnavailableError)) {
            this.log?.warn({ err: error }, 'agent health checks failed')
          }
          return Date.now() + this.#retryMs
        })
        .then((nextDue) => {
          this.#running = undefined
          // Stopped meanwhile, or stopped and started again (with a timer of its own).
          if (!this.#started || this.#timer !== timer) return
          const untilDue = (nextDue ?? Infinity) - Date.now()
          this.#wakeIn(Math.max(this.#retryMs, Math.min(this.settings.checkIntervalMs, untilDue)))
        })
    }, delayMs).unref()
    this.#timer = timer
  }

  /** Runs the due checks; resolves with when the next one is due (ms), if any agent is left. */
  async #checkDue(): Promise<number | undefined> {
    const now = Date.now()
    const entries = await this.store.list()
    const due = entries.filter((e) => Date.parse(e.nextCheckAt) <= now)
    const checked = await Promise.all(due.map((entry) => this.#check(entry)))
    const next = [...entries.filter((e) => !due.includes(e)), ...checked].map((e) =>
      Date.parse(e.nextCheckAt),
    )
    return next.length > 0 ? Math.min(...next) : undefined
  }

  /** Runs one agent's check, unless another replica has it; the entry as it now stands. */
  async #check(entry: AgentEntry): Promise<AgentEntry> {
    const ttlMs = this.settings.checkTimeoutMs + 1_000
    if (!(await this.store.claimCheck(entry.id, entry.nextCheckAt, ttlMs))) return entry
    let next: AgentEntry
    try {
      const card = await this.readCard(entry.cardUrl)
      next = this.#healthy(entry, card)
    } catch (error) {
      const retryAfterMs = rateLimitedFor(error)
      if (retryAfterMs !== undefined) {
        next = this.#answered(entry, retryAfterMs)
      } else {
        const reason = cardProblemOf(error)?.reason ?? (error as Error).message
        next = this.#failed(entry, reason)
        if (next.health !== entry.health) {
          this.log?.warn({ agent: entry.id, url: entry.url, reason }, 'agent is unhealthy')
        }
      }
    }
    // False when the entry was removed or re-registered meanwhile: then this result is stale.
    await this.store.replace(next)
    return next
  }

  #healthy(entry: AgentEntry, card: AgentCard): AgentEntry {
    const now = new Date()
    const { lastError: _lastError, ...rest } = entry
    return {
      ...rest,
      ...cardFields(card),
      // The card was read at its own URL; keep the one the agent was registered with.
      cardUrl: entry.cardUrl,
      health: 'healthy',
      consecutiveFailures: 0,
      lastCheckedAt: now.toISOString(),
      lastHealthyAt: now.toISOString(),
      nextCheckAt: new Date(now.getTime() + this.settings.checkIntervalMs).toISOString(),
      revision: entry.revision + 1,
    }
  }

  /**
   * The agent answered, but refused the read for its rate limit (429): it is up, so its health
   * stands and no failure is counted; the next check waits an interval, or longer if it asks.
   */
  #answered(entry: AgentEntry, retryAfterMs: number): AgentEntry {
    const now = Date.now()
    const delay = Math.max(this.settings.checkIntervalMs, retryAfterMs)
    return {
      ...entry,
      lastCheckedAt: new Date(now).toISOString(),
      nextCheckAt: new Date(now + delay).toISOString(),
      revision: entry.revision + 1,
    }
  }

  #failed(entry: AgentEntry, reason: string): AgentEntry {
    const now = Date.now()
    const failures = entry.consecutiveFailures + 1
    const unhealthy = failures >= this.settings.unhealthyAfter
    const { checkIntervalMs, maxBackoffMs, unhealthyAfter } = this.settings
    const delay = unhealthy
      ? Math.min(maxBackoffMs, checkIntervalMs * 2 ** (failures - unhealthyAfter))
      : checkIntervalMs
    return {
      ...entry,
      health: unhealthy ? 'unhealthy' : entry.health,
      consecutiveFailures: failures,
      lastError: reason,
      lastCheckedAt: new Date(now).toISOString(),
      nextCheckAt: new Date(now + delay).toISOString(),
      revision: entry.revision + 1,
    }
  }
}

/** How long an agent that refused the card read for its rate limit (429) asks to wait, in ms. */
function rateLimitedFor(error: unknown): number | undefined {
  const cause = error instanceof AgentCardError ? error.cause : undefined
  if (!(cause instanceof AgentError) || cause.status !== 429) return undefined
  return cause.retryAfterMs ?? 0
}
