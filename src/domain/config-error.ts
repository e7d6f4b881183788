/**
 * A setting the server cannot start with. The process prints the problems (no stack trace)
 * and exits with 78 (EX_CONFIG).
 */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'ConfigError'
  }
}
