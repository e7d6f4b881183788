/**
 * Keyset paging for task lists: a page token names the last task of the previous page by its
 * sort key (updatedAt, id), so pages stay stable while other tasks are added.
 */
import { InvalidRequestError } from '../domain/errors.js'
import type { Task } from '../domain/model.js'

export interface PageKey {
  updatedAt: string
  id: string
}

export const encodePageToken = (task: Pick<Task, 'updatedAt' | 'id'>): string =>
  Buffer.from(JSON.stringify([task.updatedAt, task.id])).toString('base64url')

export function decodePageToken(token: string): PageKey {
  try {
    const [updatedAt, id] = JSON.parse(
      Buffer.from(token, 'base64url').toString('utf8'),
    ) as unknown[]
    if (typeof updatedAt === 'string' && typeof id === 'string') return { updatedAt, id }
  } catch {
    // falls through to the error below
  }
  throw new InvalidRequestError('is not a page token this server issued', 'pageToken')
}

/** Newest first; ties broken by id so the order is total. */
export const newestFirst = (a: PageKey, b: PageKey): number =>
  a.updatedAt === b.updatedAt
    ? a.id < b.id
      ? 1
      : a.id > b.id
        ? -1
        : 0
    : a.updatedAt < b.updatedAt
      ? 1
      : -1
