/** ListTasks in A2A 1.0's shape, shared by its JSON-RPC and HTTP+JSON bindings. */
import { stateFromV10, taskToV10 } from '../../protocol/v10/codec.js'
import type { ListTasksRequest } from '../../protocol/v10/schemas.js'
import type { A2AOperations } from './operations.js'
import { DEFAULT_PAGE_SIZE } from './operations.js'

/** ListTasksResponse: `nextPageToken` is always there ("" on the last page). */
export async function listTasksV10(
  ops: A2AOperations,
  request: ListTasksRequest,
  owner: string | undefined,
) {
  const state = request.status && stateFromV10(request.status)
  const pageSize = request.pageSize ?? DEFAULT_PAGE_SIZE
  const page = await ops.list(
    {
      ...(request.contextId !== undefined && { contextId: request.contextId }),
      ...(state !== undefined && { state }),
      ...(request.pageToken !== undefined && { pageToken: request.pageToken }),
      ...(request.statusTimestampAfter !== undefined && {
        updatedSince: request.statusTimestampAfter,
      }),
      pageSize,
    },
    owner,
  )
  const view = {
    ...(request.historyLength !== undefined && { historyLength: request.historyLength }),
    includeArtifacts: request.includeArtifacts ?? false,
  }
  return {
    tasks: page.tasks.map((task) => taskToV10(task, view)),
    nextPageToken: page.nextPageToken ?? '',
    pageSize,
    totalSize: page.totalSize,
  }
}
