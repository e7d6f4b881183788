/**
 * buildApp: the whole server as a Fastify instance, wired from a Config. Tests build this and
 * use `inject` (or listen, for SSE); only src/server.ts touches the process.
 */
import { fastifySSE as sse } from '@fastify/sse'
import Fastify from 'fastify'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Logger, stdSerializers } from 'pino'
import { declareAgent } from './agent.js'
import { openAuditTrail, taskRecords } from './audit/index.js'
import { newDevSecret } from './auth/dev-secret.js'
import type { Config } from './config.js'
import type { Backend } from './backends/backend.js'
import { memoryBackend } from './backends/memory.js'
import { redisBackend } from './backends/redis.js'
import { ActiveTaskCap } from './engine/active-task-cap.js'
import type { Dispatcher } from './engine/dispatcher.js'
import { InlineDispatcher } from './engine/inline-dispatcher.js'
import { Runner } from './engine/runner.js'
import { TaskService } from './engine/task-service.js'
import { clientErrorHandler } from './http/client-errors.js'
import { MAX_PATH_PARAM_LENGTH } from './http/errors.js'
import { learnRouteMethods } from './http/route-methods.js'
import { errSerializer } from './log-serializers.js'
import { REDACTED, requestSerializer } from './http/log-request.js'
import {
  frameworkErrorHandler,
  notFoundHandler,
  rootErrorHandler,
} from './http/framework-errors.js'
import audit, { auditRateLimitHit } from './http/plugins/audit.js'
import closing from './http/plugins/closing.js'
import cors from './http/plugins/cors.js'
import auth, { authorize } from './http/plugins/auth.js'
import engine from './http/plugins/engine.js'
import expectContinue from './http/plugins/expect-continue.js'
import jsonDepth from './http/plugins/json-depth.js'
import { OpenStreams } from './http/open-streams.js'
import metricsPlugin from './http/plugins/metrics.js'
import rateLimits, { logRateLimitHit } from './http/plugins/rate-limit.js'
import type { RateLimitHit } from './http/plugins/rate-limit.js'
import requestId, { genReqId } from './http/plugins/request-id.js'
import health from './http/routes/health.js'
import seedDialect from './http/routes/seed/index.js'
import a2aDialects from './http/routes/a2a.js'
import registryRoutes from './http/routes/registry.js'
import { agentTokenFromConfig, agentTokenHint } from './orchestrator/agent-token.js'
import { Orchestrator } from './orchestrator/orchestrator.js'
import { outboundFetch } from './outbound/fetch.js'
import { orchestrateSkill } from './orchestrator/skill.js'
import { registryFromConfig } from './registry/from-config.js'
import { Metrics } from './metrics/metrics.js'
import type { AgentRegistry } from './registry/registry.js'
import { zodValidatorCompiler } from './http/zod-type-provider.js'
import { loadSkills } from './skills/load.js'
import { connectionName, connectRedis } from './store/redis/connection.js'
import { SkillRegistry } from './skills/registry.js'
import type { Skill } from './skills/skill.js'
import type { ActiveTasks } from './store/active-tasks.js'
import { MemoryActiveTasks } from './store/memory/active-tasks.js'
import type { EventLog } from './store/event-log.js'
import { observedStore } from './store/observed-store.js'
import type { TaskStore } from './store/task-store.js'
import { startWarnings } from './start-warnings.js'

export interface AppOverrides {
  /** Serve these skills instead of the configured ones. */
  skills?: Skill[]
  logger?: Logger
  store?: StoreBackend
  dispatcher?: (runner: Runner) => Dispatcher
  /** Dev mode's HS256 secret (src/server.ts makes it); a fresh one when absent. */
  devSecret?: string
  /** The agent registry (default: from the config, in Redis when REDIS_URL is set). */
  registry?: AgentRegistry
}

/**
 * How long Fastify gives one plugin to start, or one close hook to run (`pluginTimeout`). The
 * engine's preClose waits up to SHUTDOWN_GRACE_MS for running turns before it stops them, and
 * the audit trail as long for its sink: a grace past Fastify's 10 s default made `close()` fail
 * (exit 1) instead of draining, leaving the turns neither finished nor handed back.
 */
const hookTimeoutMs = (graceMs: number): number => Math.max(10_000, graceMs + 10_000)

export async function buildApp(
  config: Config,
  overrides: AppOverrides = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    ...(overrides.logger
      ? { loggerInstance: overrides.logger }
      : { logger: loggerOptions(config) }),
    bodyLimit: config.BODY_LIMIT,
    ...requestTimeouts(config.REQUEST_TIMEOUT_MS),
    trustProxy: config.TRUST_PROXY,
    genReqId,
    routerOptions: { maxParamLength: MAX_PATH_PARAM_LENGTH },
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    // Refused in the dialect's own error format instead (plugins/closing.ts).
    return503OnClosing: false,
    pluginTimeout: hookTimeoutMs(config.SHUTDOWN_GRACE_MS),
  }) as unknown as FastifyInstance
  app.setValidatorCompiler(zodValidatorCompiler)
  // Before any route: a wrong method on a known path is told which ones it takes (405).
  learnRouteMethods(app)
  // Every dialect speaks JSON; a text/plain body is refused (415) rather than parsed as a string.
  app.removeContentTypeParser('text/plain')

  // A registry handed in is the caller's to start and close.
  const registry = overrides.registry ?? registryFromConfig(config, app.log)
  if (!overrides.registry) app.addHook('onClose', async () => registry.close())
  const orchestrate = () => {
    const token = agentTokenFromConfig(config, app.log)
    const orchestrator = new Orchestrator({
      registry,
      ...(token !== undefined && { token }),
      client: { fetch: outboundFetch, timeoutMs: config.ORCHESTRATOR_CALL_TIMEOUT_MS },
    })
    return orchestrateSkill({
      orchestrator,
      agents: registry,
      tokenHint: agentTokenHint(config),
    })
  }
  const skills = new SkillRegistry(
    overrides.skills ??
      (await loadSkills(config.BUNDLED_SKILLS, config.SKILL_MODULES, { orchestrate })),
    config.DEFAULT_SKILL,
  )
  for (const warning of [
    ...config.SETTING_WARNINGS,
    ...skills.warnings,
    ...startWarnings(config),
  ]) {
    app.log.warn(warning)
  }
  const trail = await openAuditTrail(config, app.log as Logger)
  const backend = overrides.store ? undefined : chooseBackend(config, app.log as Logger)
  const store: StoreBackend = overrides.store ?? backend!
  // After the engine plugin's preClose has closed the dispatcher (running turns write to it).
  app.addHook('onClose', async () => store.close?.())
  const openStreams = new OpenStreams(config.MAX_STREAMS_PER_CALLER)
  const queuedTurns = backend?.queuedTurns?.bind(backend)
  const queueWorkers = backend?.queueWorkers?.bind(backend)
  const heldTasks = backend?.heldTasks?.bind(backend)
  const metrics: Metrics | undefined = config.METRICS_ENABLED
    ? new Metrics({
        turnsRunning: (): number => dispatcher.runningCount ?? 0,
        skillsOutliving: (): number => runner.outlivingSkills,
        streamsOpen: () => openStreams.total,
        ...(queuedTurns && { queuedTurns }),
        ...(queueWorkers && { queueWorkers }),
        ...(heldTasks && { heldTasks }),
        ...(trail.enabled && { audit: () => trail.stats() }),
      })
    : undefined
  // Every task write is audited and counted, whichever process makes it (API or worker).
  const taskStore = observedStore(store.tasks, [
    ...(trail.enabled ? [taskRecords(trail)] : []),
    ...(metrics ? [metrics] : []),
  ])
  const activeTaskCap = new ActiveTaskCap({
    activeTasks: store.activeTasks ?? new MemoryActiveTasks(),
    limit: config.MAX_ACTIVE_TASKS_PER_CALLER,
    skillTimeoutMs: config.SKILL_TIMEOUT_MS,
    waitTimeoutMs: config.INPUT_TIMEOUT_SECONDS * 1000,
    log: app.log as Logger,
  })
  const runner = new Runner({
    store: taskStore,
    skills,
    log: app.log as Logger,
    skillTimeoutMs: config.SKILL_TIMEOUT_MS,
    activeTaskCap,
  })
  const dispatcher =
    overrides.dispatcher?.(runner) ??
    backend?.dispatcher(runner, taskStore) ??
    new InlineDispatcher(runner)
  const tasks = new TaskService({
    store: taskStore,
    events: store.events,
    skills,
    dispatcher,
    activeTaskCap,
    limits: {
      maxParts: config.MAX_PARTS,
      maxTextLength: config.MAX_TEXT_LENGTH,
      maxFileBytes: config.MAX_FILE_BYTES,
    },
    dedupeMessages: config.MESSAGE_DEDUP,
    log: app.log as Logger,
  })

  // Set first, so that every plugin registered below inherits it unless it sets its own.
  app.setErrorHandler(rootErrorHandler(config.BODY_LIMIT))
  await app.register(expectContinue, { bodyLimit: config.BODY_LIMIT })
  await app.register(requestId)
  // Before the token check and the limits: a browser's preflight carries no token.
  if (config.CORS_ORIGINS.length > 0) await app.register(cors, { origins: config.CORS_ORIGINS })
  // First among the preClose hooks, so that requests are refused while the engine drains.
  await app.register(closing)
  await app.register(metricsPlugin, {
    metrics,
    ...(config.METRICS_TOKEN !== undefined && { token: config.METRICS_TOKEN }),
  })
  await app.register(audit, { trail, flushTimeoutMs: config.SHUTDOWN_GRACE_MS })
  // Before the routes, as they hook every route registered after them, and in this order:
  // verify the token, count the request (by caller, or by address when the token failed),
  // then refuse a failed token (see plugins/auth.ts).
  await app.register(auth, {
    settings: config.AUTH,
    devSecret: overrides.devSecret ?? newDevSecret(),
  })
  // A worker serves only the probes and the metrics, which no limit counts: it opens no store.
  if (config.RATE_LIMIT_MAX > 0 && config.ROLE !== 'worker') {
    await app.register(rateLimits, rateLimitOptions(config))
  }
  await app.register(authorize)
  await app.register(jsonDepth, { maxDepth: config.MAX_JSON_DEPTH })
  await app.register(engine, {
    tasks,
    agent: declareAgent(config, skills.list()),
    dispatcher,
    shutdownGraceMs: config.SHUTDOWN_GRACE_MS,
    waitTimeoutMs: config.INPUT_TIMEOUT_SECONDS * 1000,
  })
  await app.register(sse, { heartbeatInterval: config.SSE_HEARTBEAT_MS })
  app.decorate('openStreams', openStreams)
  // After the engine's preClose has drained the running turns: a stream still open then follows
  // a task that runs on elsewhere (Redis), and its client resumes it on another process.
  app.addHook('preClose', async () => openStreams.endAll())
  await app.register(health, {
    ...(backend && {
      unreachable: () => backend.unreachable(),
      unusable: () => backend.unusable?.() ?? [],
    }),
  })
  // A worker runs turns from the queue and serves only the probes.
  if (config.ROLE !== 'worker') {
    await app.register(seedDialect, {
      bodyLimit: config.BODY_LIMIT,
      cardMaxAgeSeconds: config.CARD_MAX_AGE_SECONDS,
      sendWaitMs: config.SEND_WAIT_MS,
    })
    await app.register(a2aDialects, {
      publicUrl: config.PUBLIC_URL,
      bodyLimit: config.BODY_LIMIT,
      cardMaxAgeSeconds: config.CARD_MAX_AGE_SECONDS,
      sendWaitMs: config.SEND_WAIT_MS,
      cardDefaultVersion: config.AGENT_CARD_DEFAULT_VERSION,
    })
    await app.register(registryRoutes, { registry, bodyLimit: config.BODY_LIMIT })
  }
  if (!overrides.registry) registry.start()

  // Outside any route, errors take the shape of the dialect whose path the URL is under.
  app.setNotFoundHandler(notFoundHandler)
  return app
}

interface StoreBackend {
  tasks: TaskStore
  events: EventLog
  /** In this process when absent. */
  activeTasks?: ActiveTasks
  close?(): void | Promise<void>
}

/** Redis when REDIS_URL is set; otherwise everything in this process (the embedded default). */
function chooseBackend(config: Config, log: Logger): Backend {
  const { REDIS_URL } = config
  return REDIS_URL === undefined
    ? memoryBackend(config, log)
    : redisBackend({ ...config, REDIS_URL }, log)
}

/** Counters in Redis when the server runs on it, so every process spends one budget. */
function rateLimitOptions(config: Config) {
  const { REDIS_URL } = config
  return {
    max: config.RATE_LIMIT_MAX,
    timeWindowMs: config.RATE_LIMIT_WINDOW_MS,
    discoveryMax: config.RATE_LIMIT_DISCOVERY_MAX,
    onLimited: (request: FastifyRequest, hit: RateLimitHit) => {
      logRateLimitHit(request, hit)
      auditRateLimitHit(request, {
        limit: hit.key.startsWith('card:') ? 'discovery' : 'requests',
        max: hit.limit,
        windowMs: config.RATE_LIMIT_WINDOW_MS,
      })
    },
    ...(REDIS_URL !== undefined && {
      // No offline queue and a short timeout: while Redis is away, requests pass at once.
      redis: () =>
        connectRedis(REDIS_URL, connectionName(config.REDIS_KEY_PREFIX, 'rate-limit'), {
          enableOfflineQueue: false,
          commandTimeout: 500,
        }),
      keyPrefix: config.REDIS_KEY_PREFIX,
    }),
  }
}

/**
 * Node answers 408 to a request not received within `requestTimeout` (the headers within
 * `headersTimeout`, at most 60 s), checking open connections every `connectionsCheckingInterval`
 * (30 s by default, which would let a 1 s limit wait 30): checked here at half the limit.
 */
function requestTimeouts(ms: number) {
  if (ms === 0) return { requestTimeout: 0 }
  return {
    requestTimeout: ms,
    http: {
      headersTimeout: Math.min(60_000, ms),
      connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(ms / 2))),
    },
  }
}

function loggerOptions(config: Config) {
  return {
    level: config.LOG_LEVEL,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: REDACTED },
    serializers: {
      req: requestSerializer,
      // Fastify's type asks every error for a stack; pino writes what the serializer returns.
      err: errSerializer as (error: Error) => ReturnType<typeof stdSerializers.err>,
    },
  }
}
