/**
 * The token the bundled `orchestrate` skill calls registered agents with: the server's own
 * identity as a caller of other agents, from ORCHESTRATOR_AGENT_TOKEN or, so that a sidecar or a
 * secret mount can rotate it without a restart, ORCHESTRATOR_AGENT_TOKEN_FILE (read again before
 * each call). The caller's own token is never passed on: it was issued for this agent, and
 * handing it to every registered agent would let any of them replay it here.
 */
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import type { Config } from '../config.js'
import { ConfigError } from '../domain/config-error.js'
import type { AgentToken } from './orchestrator.js'

interface Log {
  warn(object: object, message: string): void
  info(object: object, message: string): void
}

export function agentTokenFromConfig(config: Config, log?: Log): AgentToken | undefined {
  const file = config.ORCHESTRATOR_AGENT_TOKEN_FILE
  if (file === undefined) return config.ORCHESTRATOR_AGENT_TOKEN
  // Read once at start, so that a wrong path stops the server instead of every delegation.
  let current: string
  try {
    current = tokenIn(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new ConfigError([
      `ORCHESTRATOR_AGENT_TOKEN_FILE: cannot read a token from "${file}": ${(error as Error).message}`,
    ])
  }
  let failing = false
  return async () => {
    try {
      current = tokenIn(await readFile(file, 'utf8'))
      if (failing) log?.info({ file }, 'orchestrator token file is readable again')
      failing = false
    } catch (error) {
      // A file being replaced, or removed by mistake: keep the last token read, and say so once.
      if (!failing) {
        log?.warn({ file, err: error }, 'orchestrator token file unreadable: using the last token')
      }
      failing = true
    }
    return current
  }
}

/**
 * What a failure adds after an agent's refusal of the token (401, 403): the setting the token
 * comes from, or that neither is set, so that the caller is not left thinking it lacked one.
 */
export function agentTokenHint(config: Config): string {
  const setting =
    config.ORCHESTRATOR_AGENT_TOKEN_FILE !== undefined
      ? 'ORCHESTRATOR_AGENT_TOKEN_FILE'
      : config.ORCHESTRATOR_AGENT_TOKEN !== undefined
        ? 'ORCHESTRATOR_AGENT_TOKEN'
        : undefined
  return setting === undefined
    ? 'the orchestrate skill calls registered agents with the token in ORCHESTRATOR_AGENT_TOKEN or ORCHESTRATOR_AGENT_TOKEN_FILE; neither is set'
    : `the agent refused the token in ${setting}, which the orchestrate skill calls registered agents with`
}

function tokenIn(content: string): string {
  const token = content.trim()
  if (token === '') throw new Error('the file is empty')
  return token
}
