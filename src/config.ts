/**
 * The whole configuration, from the environment, validated once at start. Nothing else reads
 * `process.env`. Every setting is documented in .env.example.
 */
import { z } from 'zod'
import { ConfigError } from './domain/config-error.js'

export { ConfigError }

const list = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
)

const int = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number().int().min(min).max(max)

export const ConfigSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    HOST: z.string().min(1).default('127.0.0.1'),
    PORT: int(0, 65535).default(3000),
    /** Where callers reach this agent; published as the card's `url`. Defaults to http://localhost:PORT. */
    PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),

    AGENT_NAME: z.string().min(1).default('Code Review Agent'),
    AGENT_DESCRIPTION: z
      .string()
      .min(1)
      .default('Reviews pull requests for bugs, style violations, and security issues'),
    AGENT_VERSION: z.string().min(1).default('1.0.0'),
    AGENT_DOCUMENTATION_URL: z.url().optional(),
    AGENT_PROVIDER_ORGANIZATION: z.string().min(1).optional(),
    AGENT_PROVIDER_URL: z.url().optional(),
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
    /** How long a blocking send waits for a terminal or input-required state before answering. */
    SEND_WAIT_MS: int(0).default(30_000),
    /** How long one turn of a skill may run before the task fails. 0 disables it. */
    SKILL_TIMEOUT_MS: int(0).default(300_000),
    /**
     * How many tasks one caller may have running (submitted or working) at once; a send past it
     * is refused with 429. 0 removes the cap.
     */
    MAX_ACTIVE_TASKS_PER_CALLER: int(0).default(100),
    SSE_HEARTBEAT_MS: int(100).default(15_000),
    CARD_MAX_AGE_SECONDS: int(0).default(300),
    /**
     * The shape of /.well-known/agent-card.json for a request without `A2A-Version`: 0.3 (what
     * a header-less client is, per the spec) or 1.0 (for 1.0 clients that send no header).
     */
    AGENT_CARD_DEFAULT_VERSION: z.enum(['0.3', '1.0']).default('0.3'),
    /**
     * A2A 0.2+ sends: a retried message (same caller, same messageId) finds the task it created
     * instead of starting another. `false` makes every send a new task.
     */
    MESSAGE_DEDUP: z
      .enum(['true', 'false'])
      .default('true')
      .transform((value) => value === 'true'),
    /** How long a finished task (and its events) stays readable; 0 keeps it forever. */
    TASK_RETENTION_SECONDS: int(0).default(3600),
    /** How long shutdown waits for running skills before aborting them. */
    SHUTDOWN_GRACE_MS: int(0).default(10_000),

    /** Redis for tasks, events and the work queue; unset keeps everything in this process. */
    REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
    /** Prepended to every Redis key and channel, so several deployments can share one Redis. */
    REDIS_KEY_PREFIX: z
      .string()
      .regex(/^[^{}\s]*$/, 'must not contain braces or spaces (braces set Redis Cluster hash tags)')
      .default('a2a:'),
    /** What this process does: serve the API, run skills from the queue, or both. */
    ROLE: z.enum(['all', 'api', 'worker']).default('all'),
    /** How many turns one worker process runs at once. */
    WORKER_CONCURRENCY: int(1, 10_000).default(16),
    /** How many workers may take a turn (one each) before its task fails instead. */
    QUEUE_MAX_ATTEMPTS: int(1, 100).default(3),
    /** How long a turn may go without its worker's heartbeat before another worker takes it. */
    QUEUE_VISIBILITY_TIMEOUT_MS: int(500).default(30_000),
    /** How often expired tasks are swept from the Redis list indexes. */
    TASK_SWEEP_INTERVAL_MS: int(100).default(60_000),

    /** Agent registry: how often a registered agent's card is read to check its health. */
    REGISTRY_CHECK_INTERVAL_MS: int(100).default(30_000),
    /** Failed checks in a row after which an agent is unhealthy (and skipped by delegation). */
    REGISTRY_UNHEALTHY_AFTER: int(1, 100).default(3),
    /** The longest delay between two checks of an unhealthy agent (the backoff's cap). */
    REGISTRY_MAX_BACKOFF_MS: int(100).default(300_000),
    /** How long one health check (a card read) may take before it counts as a failure. */
    REGISTRY_CHECK_TIMEOUT_MS: int(100).default(5_000),
  })
  .superRefine((env, context) => {
    if (env.ROLE !== 'all' && env.REDIS_URL === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['ROLE'],
        message: 'needs REDIS_URL: without Redis, one process is the whole server (ROLE=all)',
      })
    }
  })
  .transform((env) => ({
    ...env,
    PUBLIC_URL: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
  }))

export type Config = z.infer<typeof ConfigSchema>

/** Parses the environment; a bad value throws a ConfigError naming each variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable means "unset", as in most .env files.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''))
  const result = ConfigSchema.safeParse(present)
  if (result.success) return result.data
  throw new ConfigError(
    result.error.issues.map((issue) => {
      const name = issue.path.join('.') || '(environment)'
      const value = typeof issue.path[0] === 'string' ? present[issue.path[0]] : undefined
      return `${name}: ${issue.message}${value === undefined ? '' : ` (got "${value}")`}`
    }),
  )
}

/** A test or embedding helper: defaults plus overrides, without touching process.env. */
export const configFrom = (overrides: Record<string, string> = {}): Config => loadConfig(overrides)
