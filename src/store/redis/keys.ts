/**
 * Every Redis key the store uses, from one builder.
 *
 * Layout (P = the store's prefix):
 *   P task:{<taskId>}            hash: the task, as JSON fragments (see task-codec.ts)
 *   P task:{<taskId>}:events     stream: the task's events; entry ids are the EventLog's ids
 *   P tasks:{idx}:all            sorted set: every task id, scored by updatedAt (ms)
 *   P tasks:{idx}:owner:<owner>  sorted set: the owner's task ids, same score
 *   P tasks:{idx}:context:<id>   sorted set: the context's task ids, same score
 *   P tasks:{idx}:expiring       sorted set: a retention record per task, scored by when the
 *                                sweep looks at it: a terminal task's expiry, an open task's
 *                                next look (see task-index.ts)
 *   P tasks:{idx}:waiting        sorted set: the ids of tasks waiting on their caller
 *                                (input-required, auth-required), scored by since when (ms)
 *   P active:{<caller>}          sorted set: the caller's active task ids, scored by when their
 *                                lease lapses (see active-tasks.ts); the caller URI-encoded
 *   P queue:{turns}              stream with the consumer group `workers`: one entry per turn
 *                                to run (see work-queue.ts); entries are deleted once done
 *   P queue:{turns}:cancel       pub/sub channel: ids of canceled tasks, to every worker
 *   P queue:{turns}:ended:<c>    pub/sub channel: ids of tasks whose turn, dispatched by the
 *                                process with consumer name <c>, has ended
 *   P queue:{turns}:workers      sorted set: the consumer names of the workers, scored by when
 *                                each last said it was alive (ms, Redis' clock)
 *   P queue:{turns}:worker-skills  hash: a worker's consumer name → its skill ids
 *
 * Cluster trade-off. A task's two keys share the hash tag `{<taskId>}`, so create and apply are
 * single-slot scripts and tasks spread over the whole cluster. The indexes hold many tasks, so
 * they cannot share a task's slot; they all share the tag `{idx}` instead, and each index script
 * is single-slot too. The price: a task write and its index write are two atomic steps, not one.
 * We accept it because the indexes are only a candidate set for `list` — order, filters and
 * paging always come from the task hashes themselves — and both index scripts are idempotent and
 * convergent (ZADD GT; removal only of entries no newer than what was seen). A crash between the
 * two steps leaves an index entry stale or missing until the task's next final state or a
 * repeated create; the entries of a task that expires meanwhile are still swept, from the
 * retention record its create wrote. (Only creates and moves to a final state touch the
 * indexes; an entry's score is the task's updatedAt as of then.) The alternative, one tag for
 * everything, is fully atomic but puts every task on one slot, which defeats running a cluster
 * at all. `{idx}` is one hot slot for index writes; a deployment that outgrows it would shard
 * the indexes by owner.
 */

/** The two keys of one task; they share a slot. */
export function taskKeys(prefix: string, taskId: string) {
  const task = `${prefix}task:{${taskId}}`
  return { task, events: `${task}:events` }
}

/** The multi-task index keys; they share the `{idx}` slot. */
export function indexKeys(prefix: string) {
  const base = `${prefix}tasks:{idx}`
  return {
    all: `${base}:all`,
    owner: (owner: string) => `${base}:owner:${owner}`,
    context: (contextId: string) => `${base}:context:${contextId}`,
    expiring: `${base}:expiring`,
    waiting: `${base}:waiting`,
  }
}

/** One caller's active tasks (the per-caller cap); its own slot. */
export function activeTaskKey(prefix: string, caller: string): string {
  return `${prefix}active:{${encodeURIComponent(caller)}}`
}

/** The work queue stream and its channels; they share the `{turns}` slot. */
export function queueKeys(prefix: string) {
  const stream = `${prefix}queue:{turns}`
  return {
    stream,
    /** The consumer group every worker reads the stream through (not a key). */
    group: 'workers',
    cancel: `${stream}:cancel`,
    ended: (consumer: string) => `${stream}:ended:${consumer}`,
    workers: `${stream}:workers`,
    workerSkills: `${stream}:worker-skills`,
  }
}

/** A prefix with a brace would move the hash tag and split a task's keys across slots. */
export function assertUsablePrefix(prefix: string): void {
  if (/[{}]/.test(prefix)) {
    throw new Error(`Redis key prefix "${prefix}" must not contain { or } (they set hash tags)`)
  }
}

/**
 * The agent registry (src/registry/redis-store.ts), under its own hash tag `{agents}`:
 *   P registry:{agents}               hash: agent id → the registry entry, as JSON
 *   P registry:{agents}:order         list: the agent ids in the order they were registered
 *   P registry:{agents}:check:<id>:<due>  string, SET NX PX: claimed by the one process that
 *                                     runs the check of agent <id> due at <due> (ISO time);
 *                                     it expires by itself after the check's timeout + 1 s
 * The registry is small (agents, not tasks), so one slot for all of it is no hot spot.
 */
export function registryKeys(prefix: string) {
  const agents = `${prefix}registry:{agents}`
  return {
    agents,
    order: `${agents}:order`,
    checkClaim: (agentId: string, dueAt: string) => `${agents}:check:${agentId}:${dueAt}`,
  }
}
