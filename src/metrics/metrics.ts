/**
 * What the server counts, for Prometheus (`GET /metrics`): plain numbers kept per app (apps in
 * one process, as in tests, never share counts), rendered at scrape (families.ts), after the
 * process metrics (CPU, memory, event-loop lag, GC) that prom-client collects once per process.
 *
 * Every figure is this process's: with several processes on one Redis, Prometheus adds them up
 * (`sum by (state) (rate(a2a_task_status_updates_total[5m]))`). The work queue's length is the
 * exception: every process reports the same shared queue, so take its `max`.
 */
import * as prom from 'prom-client'
import type { StoredEvent } from '../domain/events.js'
import type { Task } from '../domain/model.js'
import { isTerminal } from '../domain/state-machine.js'
import { OUTLIVING_AFTER_MS } from '../engine/outliving-skills.js'
import type { TaskObserver } from '../store/observed-store.js'
import type { Family } from './families.js'
import { CounterFamily, GaugeFamily, HistogramFamily } from './families.js'

/** What the metrics read when scraped, from the parts of the server that know it. */
export interface MetricSources {
  /** Turns running in this process now. */
  turnsRunning?: () => number
  /** Skills in this process still running well after their turn was stopped. */
  skillsOutliving?: () => number
  /** SSE streams open on this process now. */
  streamsOpen?: () => number
  /** Turns waiting or running in the shared work queue (Redis). */
  queuedTurns?: () => Promise<number>
  /** Workers alive on the shared work queue (Redis only). */
  queueWorkers?: () => Promise<number>
  /** The audit trail's own counts. */
  audit?: () => { written: number; failures: number; dropped: number; queued: number }
  /** The embedded store's fill (without Redis): see MAX_TASKS_IN_MEMORY. */
  heldTasks?: () => HeldTasks
}

/** What the embedded store holds now, its maximum (0: none), and what it let go early. */
export interface HeldTasks {
  held: number
  max: number
  forgottenEarly: number
}

export type Limit = 'requests' | 'discovery' | 'active-tasks' | 'streams'

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900]

export const METRICS_CONTENT_TYPE = prom.Registry.PROMETHEUS_CONTENT_TYPE

export class Metrics implements TaskObserver {
  readonly #tasksCreated = new CounterFamily('a2a_tasks_created_total', 'Tasks created, by skill', [
    'skill',
  ])
  readonly #statusUpdates = new CounterFamily(
    'a2a_task_status_updates_total',
    'Status updates stored (state changes and progress), by skill and state',
    ['skill', 'state'],
  )
  readonly #taskDuration = new HistogramFamily(
    'a2a_task_duration_seconds',
    'From a task being created to its terminal state, by skill and that state',
    ['skill', 'state'],
    SECONDS_BUCKETS,
  )
  readonly #artifactUpdates = new CounterFamily(
    'a2a_artifact_updates_total',
    'Artifact updates (whole artifacts and chunks) stored, by skill',
    ['skill'],
  )
  readonly #requests = new HistogramFamily(
    'a2a_http_request_duration_seconds',
    'HTTP requests by method, route and status code, and how long they took (a stream: until it closed)',
    ['method', 'route', 'status_code'],
    SECONDS_BUCKETS,
  )
  readonly #errors = new CounterFamily(
    'a2a_errors_total',
    'Requests answered with an error, by its A2A code (in every dialect: a JSON-RPC error is an HTTP 200)',
    ['code'],
  )
  readonly #authFailures = new CounterFamily(
    'a2a_auth_failures_total',
    'Requests refused for missing or invalid credentials (401), by reason',
    ['reason'],
  )
  readonly #permissionDenials = new CounterFamily(
    'a2a_permission_denials_total',
    'Requests refused for a missing scope (403)',
  )
  readonly #limited = new CounterFamily(
    'a2a_rate_limit_hits_total',
    'Requests refused by a limit: requests, discovery (the cards), active-tasks or streams',
    ['limit'],
  )
  readonly #families: Family[]

  constructor(sources: MetricSources = {}) {
    const {
      turnsRunning,
      skillsOutliving,
      queuedTurns,
      queueWorkers,
      streamsOpen,
      audit,
      heldTasks,
    } = sources
    this.#families = [
      this.#tasksCreated,
      this.#statusUpdates,
      this.#taskDuration,
      this.#artifactUpdates,
      ...(streamsOpen
        ? [new GaugeFamily('a2a_sse_streams_open', 'SSE streams open now', streamsOpen)]
        : []),
      ...(turnsRunning
        ? [
            new GaugeFamily(
              'a2a_turns_running',
              'Skill turns running in this process now',
              turnsRunning,
            ),
          ]
        : []),
      ...(skillsOutliving
        ? [
            new GaugeFamily(
              'a2a_skills_outliving_turn',
              `Skills still running more than ${OUTLIVING_AFTER_MS / 1000} s after their turn was stopped (canceled, timed out, shut down): they ignore ctx.signal`,
              skillsOutliving,
            ),
          ]
        : []),
      ...(queuedTurns
        ? [
            new GaugeFamily(
              'a2a_queue_turns',
              'Turns waiting or running in the shared work queue (the same in every process)',
              // Redis unreachable: the sample is left out rather than reported as 0.
              () => queuedTurns().catch(() => undefined),
            ),
          ]
        : []),
      ...(queueWorkers
        ? [
            new GaugeFamily(
              'a2a_queue_workers',
              'Workers that said they read the shared work queue within its visibility timeout (the same in every process)',
              () => queueWorkers().catch(() => undefined),
            ),
          ]
        : []),
      ...(heldTasks ? heldTaskFamilies(heldTasks) : []),
      this.#requests,
      this.#errors,
      this.#authFailures,
      this.#permissionDenials,
      this.#limited,
      ...(audit ? auditFamilies(audit) : []),
    ]
  }

  created(task: Task): void {
    this.#tasksCreated.inc([task.skillId])
  }

  changed(task: Task, { event }: StoredEvent): void {
    if (event.kind === 'artifact-update') {
      this.#artifactUpdates.inc([task.skillId])
      return
    }
    const { state } = event.status
    this.#statusUpdates.inc([task.skillId, state])
    // Observed as the change is stored, so now is when the task ended.
    if (isTerminal(state)) {
      const seconds = Math.max(0, Date.now() - Date.parse(task.createdAt)) / 1000
      this.#taskDuration.observe([task.skillId, state], seconds)
    }
  }

  /** A response was sent (or a stream closed) after `seconds`. */
  request(method: string, route: string, statusCode: number, seconds: number): void {
    this.#requests.observe([method, route, String(statusCode)], seconds)
  }

  /** A request was answered with an error; `code`: its A2A code (TASK_NOT_FOUND, …). */
  error(code: string): void {
    this.#errors.inc([code])
  }

  authFailure(reason: string): void {
    this.#authFailures.inc([reason])
  }

  permissionDenied(): void {
    this.#permissionDenials.inc()
  }

  limited(limit: Limit): void {
    this.#limited.inc([limit])
  }

  /** The exposition text: the process's metrics, then this app's. */
  async scrape(): Promise<string> {
    const own = await Promise.all(this.#families.map(async (family) => family.render()))
    return `${await processRegistry().metrics()}\n${own.join('\n')}`
  }
}

/** The embedded store's fill, read at each scrape. */
function heldTaskFamilies(held: () => HeldTasks): Family[] {
  return [
    new GaugeFamily(
      'a2a_memory_tasks_held',
      'Tasks the in-memory store holds now',
      () => held().held,
    ),
    new GaugeFamily(
      'a2a_memory_tasks_max',
      'The most tasks the in-memory store may hold (MAX_TASKS_IN_MEMORY; 0: no limit)',
      () => held().max,
    ),
    new GaugeFamily(
      'a2a_memory_tasks_forgotten_early_total',
      'Ended tasks the full in-memory store let go before their retention was up',
      () => held().forgottenEarly,
      'counter',
    ),
  ]
}

/** The trail's running totals, read at each scrape. */
function auditFamilies(audit: NonNullable<MetricSources['audit']>): Family[] {
  return [
    new GaugeFamily(
      'a2a_audit_records_written_total',
      'Audit records the sink has stored',
      () => audit().written,
      'counter',
    ),
    new GaugeFamily(
      'a2a_audit_records_dropped_total',
      'Audit records lost to a full queue',
      () => audit().dropped,
      'counter',
    ),
    new GaugeFamily(
      'a2a_audit_write_failures_total',
      'Audit sink writes that failed (each is retried)',
      () => audit().failures,
      'counter',
    ),
    new GaugeFamily(
      'a2a_audit_queue_length',
      'Audit records waiting for the sink',
      () => audit().queued,
    ),
  ]
}

let processMetrics: prom.Registry | undefined

/** CPU, memory, event-loop lag, GC: one set per process, however many apps it builds. */
function processRegistry(): prom.Registry {
  if (processMetrics === undefined) {
    processMetrics = new prom.Registry()
    prom.collectDefaultMetrics({ register: processMetrics })
  }
  return processMetrics
}
