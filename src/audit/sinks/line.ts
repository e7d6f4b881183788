/** One record as one line of JSON, `audit` first so the line is recognisable at a glance. */
import type { AuditRecord } from '../record.js'

export const recordLine = ({ audit, ...rest }: AuditRecord): string =>
  `${JSON.stringify({ audit, ...rest })}\n`
