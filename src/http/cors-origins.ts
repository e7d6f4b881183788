/**
 * CORS_ORIGINS: the web origins whose pages may call this agent from a browser. Unset: none (a
 * browser lets no other origin read an answer). `*`: any origin. Otherwise exact origins,
 * comma-separated, as a browser sends them in `Origin`: `scheme://host[:port]`, no path.
 */
import { z } from 'zod'

export const CorsOriginsSetting = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  )
  .superRefine((items, context) => {
    for (const item of items) {
      const problem = originProblem(item)
      if (problem) context.addIssue({ code: 'custom', message: problem })
    }
  })

/** Why `item` is not an origin a browser would send; undefined when it is one (or `*`). */
export function originProblem(item: string): string | undefined {
  if (item === '*') return undefined
  let url: URL
  try {
    url = new URL(item)
  } catch {
    return `"${item}" is not an origin: give scheme://host[:port], e.g. https://app.example.com, or *`
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `"${item}" is not a web origin: it must start with http:// or https://`
  }
  // What a browser sends: no path, no trailing slash, lowercase host, no default port.
  if (url.origin !== item) {
    return `"${item}" is not an origin as a browser sends it: write "${url.origin}"`
  }
  return undefined
}
