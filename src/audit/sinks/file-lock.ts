/**
 * One writer per audit file. Two processes appending to one file would each chain from their
 * own last record, and the file's hash chain would fork: `a2a audit verify` would then report
 * tampering that never happened. So the file sink holds `<file>.lock` (proper-lockfile: a
 * directory made atomically, its mtime refreshed while the holder lives) and a second writer,
 * in this process or another, on this host or another that shares the file, is refused.
 *
 * A writer that died (SIGKILL, a crash, a lost host) leaves its lock behind; it goes stale once
 * it has not been refreshed for STALE_MS, and the next writer takes it over. So a start finding
 * the file locked waits that long before it gives up: a restart right after a crash succeeds.
 */
import { realpath } from 'node:fs/promises'
import type { Logger } from 'pino'

/** A lock not refreshed for this long belongs to a writer that is gone (refreshed every half). */
export const STALE_MS = 10_000

export interface AuditFileLockOptions {
  /** How long a start waits for another writer's lock to go stale; 0: it does not wait. */
  waitMs?: number
}

/** Locks `path` for this writer; resolves with the release. Throws when another writer has it. */
export async function lockAuditFile(
  path: string,
  log: Logger,
  { waitMs = STALE_MS + 1000 }: AuditFileLockOptions = {},
): Promise<() => Promise<void>> {
  // Loaded only by a process that writes an audit file: it hooks the process's exit and signals
  // (to remove its locks), which no other process needs.
  const { lock } = await import('proper-lockfile')
  // The lock is the file's, whatever the path (a link) it was named by.
  const lockPath = `${await realpath(path)}.lock`
  const options = {
    stale: STALE_MS,
    onCompromised: (error: Error) =>
      log.error(
        { err: error, trail: { file: path } },
        'lost the lock on the audit file: if another process writes it now, its hash chain forks',
      ),
  }
  try {
    return await lock(path, options)
  } catch (error) {
    if (!isLocked(error) || waitMs <= 0) throw refusal(error, lockPath)
  }
  log.warn(
    { trail: { file: path } },
    `the audit file is locked by another writer (${lockPath}); waiting up to ${Math.ceil(waitMs / 1000)} s for the lock to go, in case that writer is gone`,
  )
  const attempts = Math.ceil(waitMs / 1000)
  try {
    return await lock(path, {
      ...options,
      retries: { retries: attempts, factor: 1, minTimeout: 1000, maxTimeout: 1000 },
    })
  } catch (error) {
    throw refusal(error, lockPath)
  }
}

const isLocked = (error: unknown): boolean => (error as { code?: unknown }).code === 'ELOCKED'

function refusal(error: unknown, lockPath: string): Error {
  if (!isLocked(error)) return error instanceof Error ? error : new Error(String(error))
  return new Error(
    `another process writes it (its lock ${lockPath} is live): two writers would fork its hash chain. Give each process its own AUDIT_FILE, or use AUDIT_SINK=redis for several processes`,
  )
}
