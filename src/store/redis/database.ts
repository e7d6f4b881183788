/**
 * The database a Redis URL names (`redis://host:6379/2`, or `?db=2`). ioredis reads `/abc` as
 * `SELECT NaN`, which throws out of the connection on connect, and a `SELECT` that Redis
 * refuses (`/99` on a Redis with 16 databases) leaves the connection on database 0: perhaps
 * another deployment's, under the same key prefix.
 */

/** What is wrong with the database `url` names; undefined when it names none, or a whole number. */
export function databaseProblem(url: string): string | undefined {
  // Not a URL at all: the URL check says so.
  const parsed = URL.canParse(url) ? new URL(url) : undefined
  if (parsed === undefined) return undefined
  for (const given of [parsed.pathname.slice(1), parsed.searchParams.get('db')]) {
    if (given !== null && given !== '' && !/^\d{1,9}$/.test(given)) {
      return `names database "${given}"; a database is a whole number, 0 or more (redis://host:6379/0)`
    }
  }
  return undefined
}

/** Redis refused the SELECT of the database the URL names: it has fewer databases. */
export const isDatabaseOutOfRange = (error: Error): boolean =>
  error.message.startsWith('ERR DB index is out of range')
