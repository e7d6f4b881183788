/**
 * How a list query selects and pages tasks, whatever store holds them: the filters, the order
 * (newest update first) and keyset paging after the token's task.
 */
import type { Task } from '../domain/model.js'
import { decodePageToken, encodePageToken, newestFirst } from './page-token.js'
import type { TaskPage, TaskQuery } from './task-store.js'

export const matchesQuery = (task: Task, query: TaskQuery): boolean =>
  (query.owner === undefined || task.owner === query.owner) &&
  (query.contextId === undefined || task.contextId === query.contextId) &&
  (query.state === undefined || task.status.state === query.state) &&
  (query.updatedSince === undefined || task.updatedAt >= query.updatedSince)

/** The page of `candidates` that `query` asks for; candidates may include non-matching tasks. */
export function pageOf(candidates: Iterable<Task>, query: TaskQuery): TaskPage {
  const after = query.pageToken === undefined ? undefined : decodePageToken(query.pageToken)
  const matching = [...candidates].filter((task) => matchesQuery(task, query)).sort(newestFirst)
  const start = after ? matching.findIndex((task) => newestFirst(task, after) > 0) : 0
  const page = start === -1 ? [] : matching.slice(start, start + query.pageSize)
  const last = page.at(-1)
  const more = start !== -1 && start + query.pageSize < matching.length
  return {
    tasks: page,
    ...(more && last && { nextPageToken: encodePageToken(last) }),
    totalSize: matching.length,
  }
}
