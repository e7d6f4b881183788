/**
 * Dev mode's ephemeral HS256 secret. The server makes a fresh one at every start and writes it
 * (mode 0600, in a 0700 directory) where `a2a token` finds it; it is removed at shutdown. A
 * secret in a file is a dev convenience only: production refuses to start without AUTH_* keys.
 */
import { randomBytes } from 'node:crypto'
import { chmod, mkdir, rename, writeFile } from 'node:fs/promises'
import { readFileSync, rmSync } from 'node:fs'
import { dirname } from 'node:path'

export const newDevSecret = (): string => randomBytes(32).toString('base64url')

/** Writes atomically (temp file, then rename), so a reader never sees half a secret. */
export async function writeDevSecret(file: string, secret: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 })
  const temp = `${file}.${process.pid}.tmp`
  await writeFile(temp, `${secret}\n`, { mode: 0o600 })
  await chmod(temp, 0o600)
  await rename(temp, file)
}

/**
 * Removes the file if it still holds `secret` (another dev server may have replaced it).
 * Synchronous, so that it can run in the process's `exit` handler.
 */
export function removeDevSecret(file: string, secret: string): void {
  if (readDevSecret(file) === secret) rmSync(file, { force: true })
}

export function readDevSecret(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim() || undefined
  } catch {
    return undefined
  }
}
