/**
 * Query strings: each parameter is given once. A repeated one (`?pageSize=1&pageSize=2`) comes
 * from the query parser as an array, which the parameter's own check would report as being of
 * the wrong type ("must be a number", "must be one of …" for a list of valid values); it is
 * named for what it is instead. Every dialect's query schemas are wrapped in this.
 */
import { z } from 'zod'

export const singleValued = <S extends z.ZodType>(schema: S) =>
  z.preprocess((query, context) => {
    if (query !== null && typeof query === 'object') {
      for (const [name, value] of Object.entries(query)) {
        if (Array.isArray(value)) {
          context.addIssue({
            code: 'custom',
            path: [name],
            message: 'is given more than once; give it once',
            input: value,
          })
        }
      }
    }
    return query
  }, schema)
