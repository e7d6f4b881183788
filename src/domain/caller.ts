/**
 * Who is calling, and what the scope model lets them do. A caller is the verified token's
 * subject (`sub`), its tenant (when the deployment names a tenant claim) and its scopes.
 *
 * The scope model (docs/security.md):
 * - `a2a:invoke`  talk to the agent at all: send, read, list, cancel, subscribe, extended card;
 * - `skill:<id>`  start or continue a task of skill <id> when the skill requires it (every skill
 *                 does unless it declares other `scopes`); `skill:*` grants every skill;
 * - `a2a:admin`   everything above, on every caller's tasks (operators only).
 */

export interface Caller {
  /** The token's `sub`. */
  id: string
  tenant?: string
  scopes: readonly string[]
}

export const INVOKE_SCOPE = 'a2a:invoke'
export const ADMIN_SCOPE = 'a2a:admin'
export const ALL_SKILLS_SCOPE = 'skill:*'

export const skillScope = (skillId: string): string => `skill:${skillId}`

/** The scopes a skill requires: the ones it declares, or `skill:<id>` when it declares none. */
export const requiredScopes = (skill: { id: string; scopes?: readonly string[] }): string[] => [
  ...(skill.scopes ?? [skillScope(skill.id)]),
]

export const isAdmin = (scopes: readonly string[]): boolean => scopes.includes(ADMIN_SCOPE)

/** The required scopes that `scopes` lacks (empty: allowed). */
export function missingScopes(scopes: readonly string[], required: readonly string[]): string[] {
  if (isAdmin(scopes)) return []
  return required.filter(
    (scope) =>
      !scopes.includes(scope) && !(scope.startsWith('skill:') && scopes.includes(ALL_SKILLS_SCOPE)),
  )
}

/**
 * The key tasks are owned under: the subject alone, or tenant and subject. Both are
 * percent-encoded, so `/` appears only between them and no two callers share a key.
 */
export const ownerKey = (caller: Pick<Caller, 'id' | 'tenant'>): string =>
  caller.tenant === undefined
    ? encodeURIComponent(caller.id)
    : `${encodeURIComponent(caller.tenant)}/${encodeURIComponent(caller.id)}`
