/**
 * Which HTTP methods serve a path, learnt from every route as it is added (`onRoute`): a
 * request for a known path with another method is told so (405 and `Allow`) rather than that no
 * route exists. Route URLs are find-my-way patterns, of the forms this server registers: a
 * segment `:name` is one path segment (a REST task id includes its `:verb`), `::` a literal
 * colon, and `*` the rest of the path.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'

declare module 'fastify' {
  interface FastifyInstance {
    routeMethods: RouteMethods
  }
}

export class RouteMethods {
  readonly #routes: { pattern: RegExp; method: string; fixed: boolean }[] = []

  add(method: string | string[], url: string): void {
    const pattern = patternOf(url)
    const fixed = !/(^|\/)(:(?!:)|\*)/.test(url)
    for (const one of [method].flat()) this.#routes.push({ pattern, method: one, fixed })
  }

  /**
   * The methods some route serves `path` with (no query string), in order; none: no route. A
   * route without parameters that matches (`/tasks/send`) speaks for the path alone, over one
   * with them (`/tasks/:id`), as the router prefers it too.
   */
  allowed(path: string): string[] {
    const matching = this.#routes.filter(({ pattern }) => pattern.test(path))
    const fixed = matching.filter((route) => route.fixed)
    const methods = new Set((fixed.length > 0 ? fixed : matching).map((route) => route.method))
    return [...methods].sort()
  }
}

/** The request's path, without its query string. */
export const pathOf = (request: Pick<FastifyRequest, 'url'>): string =>
  request.url.split('?', 1)[0]!

/** Learns every route registered after it, in every plugin. */
export function learnRouteMethods(app: FastifyInstance): void {
  const routeMethods = new RouteMethods()
  app.decorate('routeMethods', routeMethods)
  app.addHook('onRoute', (route) => routeMethods.add(route.method, route.url))
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

function patternOf(url: string): RegExp {
  const segments = url.split('/').map((segment) => {
    if (segment === '*') return '.*'
    if (segment.startsWith(':') && !segment.startsWith('::')) return '[^/]+'
    return escape(segment.replaceAll('::', ':'))
  })
  return new RegExp(`^${segments.join('/')}$`)
}
