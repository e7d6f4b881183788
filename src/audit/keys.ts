/**
 * The audit trail's Redis keys, after the store's conventions (src/store/redis/keys.ts): the
 * deployment's prefix first, and one hash tag, `{trail}`, shared by both keys so the append
 * script is single-slot on Redis Cluster.
 *
 *   P audit:{trail}        stream: the records, oldest first, capped (AUDIT_STREAM_MAXLEN)
 *   P audit:{trail}:head   hash: `seq` and `hash` of the last record appended
 */
export function auditKeys(prefix: string) {
  const stream = `${prefix}audit:{trail}`
  return { stream, head: `${stream}:head` }
}
