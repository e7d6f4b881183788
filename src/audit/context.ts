/**
 * Who and which request an audit record belongs to, carried through the async work of a
 * request with AsyncLocalStorage: the HTTP layer enters it (http/plugins/audit.ts) and the
 * audited store reads it, however deep in the engine the store call happens. Fields are read
 * when a record is made, so a caller identified after the context was entered still counts.
 * Outside any request (a worker process running a queued turn) there is no context.
 */
import { AsyncLocalStorage } from 'node:async_hooks'

export interface RequestContext {
  requestId?: string
  caller?: string
  tenant?: string
}

const storage = new AsyncLocalStorage<() => RequestContext>()

/** Runs `fn` (and everything it starts) with `context` as the current request context. */
export function runWithContext<T>(context: () => RequestContext, fn: () => T): T {
  return storage.run(context, fn)
}

/** The current request's context; empty outside a request. */
export function currentContext(): RequestContext {
  return storage.getStore()?.() ?? {}
}
