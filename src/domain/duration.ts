/**
 * The longest wait a setting or a skill may ask for: 24 days. Node's timers hold at most
 * 2^31 - 1 ms (24.8 days) and fire at once past it, so a longer SKILL_TIMEOUT_MS failed every
 * task at once. The rest of those 24.8 days leaves room for what the server adds to a setting
 * (the shutdown hooks' allowance on SHUTDOWN_GRACE_MS, a blocking send's slack).
 */
export const MAX_DURATION_MS = 24 * 24 * 3600 * 1000
