/**
 * Dev mode's HS256 secret, kept in a file (mode 0600, in a 0700 directory) where `a2a token`
 * finds it. The first dev-mode server in a directory makes it; every later one, started beside
 * it or after it, signs with the same secret, so that one token works on all of them. Deleting
 * the file makes the next start choose a new one. A secret in a file is a dev convenience only:
 * production refuses to start without AUTH_* keys.
 */
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { chmod, link, mkdir, rm, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { ConfigError } from '../domain/config-error.js'
import { MIN_SECRET_LENGTH } from './settings.js'

export const newDevSecret = (): string => randomBytes(32).toString('base64url')

/** The secret in `file`, made there first when there is none. */
export async function devSecretIn(file: string): Promise<string> {
  const kept = readDevSecret(file) ?? (await createDevSecret(file).catch(cannotMake(file)))
  if (kept.length < MIN_SECRET_LENGTH) {
    throw new ConfigError([
      `AUTH_DEV_SECRET_FILE: ${file} holds ${kept.length} characters; a secret must be at least ${MIN_SECRET_LENGTH}: delete the file, and the next start makes a new one`,
    ])
  }
  return kept
}

/** A file that cannot be made (a read-only directory, as in a container): the setting to change. */
const cannotMake =
  (file: string) =>
  (error: unknown): never => {
    const reason = error instanceof Error ? error.message : String(error)
    throw new ConfigError([
      `AUTH_DEV_SECRET_FILE: cannot make ${file} (${reason}): dev mode keeps its secret there; point AUTH_DEV_SECRET_FILE at a writable path, or set AUTH_JWT_SECRET`,
    ])
  }

/**
 * Writes a new secret to a temporary file, then links it into place: a reader never sees half
 * a secret, and of two servers starting at once, the second finds the first one's and uses it.
 */
async function createDevSecret(file: string): Promise<string> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 })
  const secret = newDevSecret()
  const temp = `${file}.${process.pid}.tmp`
  try {
    await writeFile(temp, `${secret}\n`, { mode: 0o600 })
    await chmod(temp, 0o600)
    await link(temp, file)
    return secret
  } catch (error) {
    const other = (error as NodeJS.ErrnoException).code === 'EEXIST' && readDevSecret(file)
    if (other) return other
    throw error
  } finally {
    await rm(temp, { force: true })
  }
}

export function readDevSecret(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim() || undefined
  } catch {
    return undefined
  }
}
