/**
 * The whole configuration, from the environment, validated once at start. Nothing else reads
 * `process.env`. Every setting is documented in .env.example.
 */
import { z } from 'zod'
import { MIN_SECRET_LENGTH, authSettings, checkAuth } from './auth/settings.js'
import { ConfigError } from './domain/config-error.js'
import { nearestName } from './domain/near-name.js'
import { plainly } from './domain/issue-messages.js'
import { withoutPassword } from './domain/url-password.js'
import { MAX_DURATION_MS } from './domain/duration.js'
import { wholeNumberFromText } from './domain/whole-number.js'
import { databaseProblem } from './store/redis/database.js'
import { CorsOriginsSetting } from './http/cors-origins.js'
import { TrustProxySetting } from './http/trust-proxy.js'

export { ConfigError }

const list = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
)

/** A whole number from the text of a variable: `int(0)`, `int(1, 100)`. */
const int = wholeNumberFromText

/** Text that says something: trimmed, and not blank. */
const text = () => z.string().trim().min(1, 'must not be blank')

/** A duration in ms of at least `min`, up to what a timer holds (domain/duration.ts). */
const ms = (min: number) => int(min, MAX_DURATION_MS)

/** A URL with one of `schemes` (any scheme when none is given). */
const url = (...schemes: string[]) =>
  schemes.length === 0
    ? z.url({ error: 'must be a URL' })
    : z.url({
        protocol: new RegExp(`^(${schemes.join('|')})$`),
        error: `must be a URL starting with ${schemes.map((scheme) => `${scheme}://`).join(' or ')}`,
      })

/** One of `values`, named in the message. */
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(', ')}` })

/** `true` or `false`, read as a boolean. */
const flag = (value: 'true' | 'false') =>
  oneOf(['true', 'false'])
    .default(value)
    .transform((text) => text === 'true')

/** A setting whose value an error message must never show (a key, a token). */
const secret = <T extends z.ZodType>(schema: T) => schema.meta({ secret: true })

/** Every setting, each as the environment gives it. */
const Settings = z.object({
  NODE_ENV: oneOf(['development', 'production', 'test']).default('development'),
  HOST: text().default('127.0.0.1'),
  PORT: int(0, 65535).default(3000),
  /** Where callers reach this agent; published as the card's `url`. Defaults to http://localhost:PORT. */
  PUBLIC_URL: url('http', 'https').optional(),
  LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),

  AGENT_NAME: text().default('Code Review Agent'),
  AGENT_DESCRIPTION: text().default(
    'Reviews pull requests for bugs, style violations, and security issues',
  ),
  AGENT_VERSION: text().default('1.0.0'),
  AGENT_DOCUMENTATION_URL: url().optional(),
  AGENT_PROVIDER_ORGANIZATION: text().optional(),
  AGENT_PROVIDER_URL: url().optional(),
  /** Module paths (or package names) whose default export is a Skill, a Skill[], or a factory of either. */
  SKILL_MODULES: list.default([]),
  /**
   * Bundled skills to serve; `review-pr` and `echo` make the Code Review Agent; `orchestrate`
   * (opt-in) delegates to agents of the registry.
   */
  BUNDLED_SKILLS: list.default(['review-pr', 'echo']),
  /** The skill that runs when a request names none. Defaults to the first skill. */
  DEFAULT_SKILL: z.string().min(1).optional(),

  /** Largest request body, in bytes. */
  BODY_LIMIT: int(1024).default(1_048_576),
  MAX_PARTS: int(1, 10_000).default(64),
  MAX_TEXT_LENGTH: int(1).default(262_144),
  /** Largest inline file (`bytes`, base64), in characters. */
  MAX_FILE_BYTES: int(0).default(524_288),
  /** Deepest nesting of arrays and objects in a JSON body; deeper bodies are refused. */
  MAX_JSON_DEPTH: int(2, 10_000).default(64),
  /** How long a blocking send waits for a terminal or input-required state before answering. */
  SEND_WAIT_MS: ms(0).default(30_000),
  /**
   * How long a client may take to send a whole request, headers and body, before it is
   * answered 408 and its connection closed: a client trickling a body holds no connection for
   * long. The response may take as long as it needs (streams are not cut). 0: no limit.
   */
  REQUEST_TIMEOUT_MS: ms(0).default(30_000),
  /**
   * How many SSE streams one caller may have open on one server process; past it a new stream
   * is refused (429) before anything is created. 0: no limit.
   */
  MAX_STREAMS_PER_CALLER: int(0).default(100),
  /** How long one turn of a skill may run before the task fails. 0 disables it. */
  SKILL_TIMEOUT_MS: ms(0).default(300_000),
  /**
   * How many open tasks one caller may have at once: running (submitted or working), or waiting
   * for its answer; a send past it is refused with 429. 0 removes the cap.
   */
  MAX_ACTIVE_TASKS_PER_CALLER: int(0).default(100),
  SSE_HEARTBEAT_MS: ms(100).default(15_000),
  CARD_MAX_AGE_SECONDS: int(0).default(300),
  /**
   * The shape of /.well-known/agent-card.json for a request without `A2A-Version`: 0.3 (what
   * a header-less client is, per the spec) or 1.0 (for 1.0 clients that send no header).
   */
  AGENT_CARD_DEFAULT_VERSION: oneOf(['0.3', '1.0']).default('0.3'),
  /**
   * A2A 0.2+ sends: a retried message (same caller, same messageId) finds the task it created
   * instead of starting another. `false` makes every send a new task.
   */
  MESSAGE_DEDUP: flag('true'),
  /** Serve Prometheus metrics at GET /metrics (public, like the probes) and count them. */
  METRICS_ENABLED: flag('true'),
  /**
   * When set, GET /metrics needs `Authorization: Bearer <this>` (a Prometheus scrape job's
   * `authorization` setting); unset, /metrics is public like the probes.
   */
  METRICS_TOKEN: secret(
    z
      .string()
      .min(MIN_SECRET_LENGTH, `must be at least ${MIN_SECRET_LENGTH} characters`)
      .optional(),
  ),
  /** How long a finished task (and its events) stays readable; 0 keeps it forever. */
  TASK_RETENTION_SECONDS: int(0).default(3600),
  /**
   * Without REDIS_URL: the most tasks kept in memory. When full, a new task takes the place of
   * the task that ended first; when none has ended, it is refused (503). 0: no limit.
   */
  MAX_TASKS_IN_MEMORY: int(0).default(20_000),
  /**
   * How long a task may wait on its caller (input-required, auth-required) before it fails
   * with a message saying so; 0: for ever.
   */
  INPUT_TIMEOUT_SECONDS: int(0).default(86_400),
  /** How long shutdown waits for running skills before aborting them. */
  SHUTDOWN_GRACE_MS: ms(0).default(10_000),

  /**
   * Requests per caller (the token's subject; the client address before authentication) per
   * window, over every route but the probes and the public cards. 0 turns rate limits off.
   */
  RATE_LIMIT_MAX: int(0).default(1000),
  RATE_LIMIT_WINDOW_MS: ms(1000).default(60_000),
  /** Requests per client address per window to each public Agent Card. 0: no limit on them. */
  RATE_LIMIT_DISCOVERY_MAX: int(0).default(300),
  /**
   * Which proxies may set X-Forwarded-For (the client address that rate limits key on):
   * `false`, `true`, a hop count, or comma-separated addresses and ranges (http/trust-proxy.ts).
   */
  TRUST_PROXY: TrustProxySetting,
  /**
   * Web origins whose pages may call this agent from a browser: `*`, or exact origins
   * (`https://app.example.com`), comma-separated (http/cors-origins.ts). Unset: none.
   */
  CORS_ORIGINS: CorsOriginsSetting.default([]),

  /** Redis for tasks, events and the work queue; unset keeps everything in this process. */
  REDIS_URL: url('redis', 'rediss')
    .superRefine((value, context) => {
      const problem = databaseProblem(value)
      if (problem) context.addIssue({ code: 'custom', message: problem })
    })
    .optional(),
  /** Prepended to every Redis key and channel, so several deployments can share one Redis. */
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[^{}\s]*$/, 'must not contain braces or spaces (braces set Redis Cluster hash tags)')
    .default('a2a:'),
  /** What this process does: serve the API, run skills from the queue, or both. */
  ROLE: oneOf(['all', 'api', 'worker']).default('all'),
  /** How many turns one worker process runs at once. */
  WORKER_CONCURRENCY: int(1, 10_000).default(16),
  /** How many workers may take a turn (one each) before its task fails instead. */
  QUEUE_MAX_ATTEMPTS: int(1, 100).default(3),
  /** How long a turn may go without its worker's heartbeat before another worker takes it. */
  QUEUE_VISIBILITY_TIMEOUT_MS: ms(500).default(30_000),
  /** How often expired tasks are swept from the Redis list indexes. */
  TASK_SWEEP_INTERVAL_MS: ms(100).default(60_000),

  /** Where audit records go; unset: `redis` when REDIS_URL is set, else `stdout`. */
  AUDIT_SINK: oneOf(['stdout', 'file', 'redis', 'off']).optional(),
  /** The file AUDIT_SINK=file appends to. */
  AUDIT_FILE: z.string().min(1).optional(),
  /** About how many records the Redis audit stream keeps; older ones are dropped. */
  AUDIT_STREAM_MAXLEN: int(100).default(100_000),
  /** How many records may wait for a slow or failing sink before new ones are dropped. */
  AUDIT_QUEUE_MAX: int(1).default(10_000),
  /** HS256 shared secret (at least 32 characters). Set one of this, _PUBLIC_KEY or AUTH_JWKS_URL. */
  AUTH_JWT_SECRET: secret(
    z
      .string()
      .min(MIN_SECRET_LENGTH, `must be at least ${MIN_SECRET_LENGTH} characters`)
      .optional(),
  ),
  /**
   * An RSA or EC public key in PEM (`\\n` escapes allowed, for one-line env files). Its value is
   * never shown in a message: a private key pasted here by mistake must not reach the log.
   */
  AUTH_JWT_PUBLIC_KEY: secret(z.string().min(1).optional()),
  /** A JWKS URL (the identity provider's keys); keys are cached and picked by `kid`. */
  AUTH_JWKS_URL: url('http', 'https').optional(),
  /** Accepted `alg` values; defaults to the mode's own (HS256; by the key: RS256, or the ES* of its curve; RS256 and ES256 for JWKS). */
  AUTH_JWT_ALGORITHMS: list.optional(),
  /** Accepted `iss` values (comma-separated); unset accepts any issuer. */
  AUTH_JWT_ISSUER: list.optional(),
  /** Accepted `aud` values (comma-separated); unset accepts any audience. */
  AUTH_JWT_AUDIENCE: list.optional(),
  /** Leeway for `exp` and `nbf`, for clocks that disagree a little. */
  AUTH_CLOCK_SKEW_SECONDS: int(0, 300).default(30),
  /** The claim that names the caller's tenant; tasks are owned per tenant and subject. */
  AUTH_TENANT_CLAIM: z.string().min(1).default('tenant'),
  /** Where dev-mode servers keep their secret for `a2a token` (mode 0600). */
  AUTH_DEV_SECRET_FILE: z.string().min(1).default('.a2a/dev-secret'),
  /** Agent registry: how often a registered agent's card is read to check its health. */
  REGISTRY_CHECK_INTERVAL_MS: ms(100).default(30_000),
  /** Failed checks in a row after which an agent is unhealthy (and skipped by delegation). */
  REGISTRY_UNHEALTHY_AFTER: int(1, 100).default(3),
  /** The longest delay between two checks of an unhealthy agent (the backoff's cap). */
  REGISTRY_MAX_BACKOFF_MS: ms(100).default(300_000),
  /** How long one health check (a card read) may take before it counts as a failure. */
  REGISTRY_CHECK_TIMEOUT_MS: ms(100).default(5_000),
  /** The bearer token the `orchestrate` skill calls registered agents with (its own identity). */
  ORCHESTRATOR_AGENT_TOKEN: secret(z.string().min(1).optional()),
  /** A file holding that token, read again before each call (so it can be rotated in place). */
  ORCHESTRATOR_AGENT_TOKEN_FILE: z.string().min(1).optional(),
  /**
   * How long the `orchestrate` skill waits for an agent to answer one call (for a stream: to
   * start it) before it tries the next agent.
   */
  ORCHESTRATOR_CALL_TIMEOUT_MS: ms(100).default(30_000),
})

export const ConfigSchema = Settings.superRefine(checkAuth)
  .superRefine((env, context) => {
    if (env.ROLE !== 'all' && env.REDIS_URL === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['ROLE'],
        message: 'needs REDIS_URL: without Redis, one process is the whole server (ROLE=all)',
      })
    }
    if (env.AUDIT_SINK === 'redis' && env.REDIS_URL === undefined) {
      context.addIssue({ code: 'custom', path: ['AUDIT_SINK'], message: 'redis needs REDIS_URL' })
    }
    if (env.ORCHESTRATOR_AGENT_TOKEN !== undefined && env.ORCHESTRATOR_AGENT_TOKEN_FILE) {
      context.addIssue({
        code: 'custom',
        path: ['ORCHESTRATOR_AGENT_TOKEN_FILE'],
        message: 'set ORCHESTRATOR_AGENT_TOKEN or ORCHESTRATOR_AGENT_TOKEN_FILE, not both',
      })
    }
    if (env.AUDIT_SINK === 'file' && env.AUDIT_FILE === undefined) {
      context.addIssue({ code: 'custom', path: ['AUDIT_SINK'], message: 'file needs AUDIT_FILE' })
    }
  })
  .transform((env) => ({
    ...env,
    PUBLIC_URL: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    /** PUBLIC_URL was not given: the cards name this machine's localhost. */
    PUBLIC_URL_IS_LOCAL_DEFAULT: env.PUBLIC_URL === undefined,
    AUDIT_SINK: env.AUDIT_SINK ?? (env.REDIS_URL === undefined ? 'stdout' : 'redis'),
    AUTH: authSettings(env),
  }))

export type Config = z.infer<typeof ConfigSchema> & {
  /** What the start logs about the environment it was given (see unknownSettings). */
  SETTING_WARNINGS: string[]
}

/** Parses the environment; a bad value throws a ConfigError naming each variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable means "unset", as in most .env files.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''))
  const result = ConfigSchema.safeParse(present, plainly)
  if (result.success) return { ...result.data, SETTING_WARNINGS: unknownSettings(present) }
  throw new ConfigError(
    result.error.issues.map((issue) => {
      const name = issue.path.join('.') || '(environment)'
      const value = typeof issue.path[0] === 'string' ? present[issue.path[0]] : undefined
      if (value === undefined) return `${name}: ${issue.message}`
      return `${name}: ${issue.message} (${shown(String(issue.path[0]), value)})`
    }),
  )
}

/**
 * A variable no setting has, named like one (`SKILL_MODULE`, `BUNDLE_SKILLS`): most likely a
 * slip, which would otherwise be ignored in silence. Only upper-case names of six characters
 * or more are compared, a short one allowed one edit, so the shell's own (HOME, npm's lower-case
 * ones) never match.
 */
function unknownSettings(env: Record<string, string | undefined>): string[] {
  const known = Object.keys(Settings.shape)
  const warnings: string[] = []
  for (const name of Object.keys(env)) {
    if (!/^[A-Z][A-Z0-9_]{5,}$/.test(name) || Object.hasOwn(Settings.shape, name)) continue
    const meant = nearestName(name, known, name.length < 8 ? 1 : 2)
    if (meant !== undefined) {
      warnings.push(`unknown setting ${name} is ignored; did you mean ${meant}?`)
    }
  }
  return warnings
}

/**
 * What an error message may show of a variable's value: a secret's length only, and any other
 * value with the password of a URL in it (redis://user:password@host) masked.
 */
function shown(name: string, value: string): string {
  const setting = (Settings.shape as Record<string, z.ZodType | undefined>)[name]
  if (setting?.meta()?.secret === true) return `got ${value.length} characters, not shown`
  return `got "${withoutPassword(value)}"`
}

/** A test or embedding helper: defaults plus overrides, without touching process.env. */
export const configFrom = (overrides: Record<string, string> = {}): Config => loadConfig(overrides)
