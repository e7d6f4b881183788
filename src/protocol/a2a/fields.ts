/**
 * Request fields that A2A 0.3 and 1.0 read alike (JSON-RPC params and HTTP+JSON bodies). Counts
 * (history lengths, page sizes) are whole numbers (domain/whole-number.ts).
 */
import { z } from 'zod'

/** A field's type error: "is required" when it is absent, `wrongType` when it is something else. */
export const requiredAs =
  (wrongType: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined ? 'is required' : wrongType

/** A string the request must carry, not empty. */
export const RequiredString = z
  .string({ error: requiredAs('must be a string') })
  .min(1, 'is required')

/** An unset string is left out or sent empty (ProtoJSON does both): both mean "not given". */
export const OptionalId = z
  .string({ error: 'must be a string' })
  .optional()
  .transform((value) => (value === '' ? undefined : value))

/** A client may name a context; its id is stored and indexed, so it is kept short. */
export const ContextId = z
  .string({ error: 'must be a string' })
  .max(256, 'must be at most 256 characters')
  .optional()
  .transform((value) => (value === '' ? undefined : value))

/**
 * Where a file part points. Every dialect's schemas check it alike (the brief's too): a part
 * one dialect accepts is never one another refuses when it reads the task back.
 */
export const FileUrl = z.url()

/**
 * A file's inline bytes, in every dialect alike: base64 as RFC 4648 writes it, on one line. What
 * the `base64` command prints breaks its lines; the message says what to change.
 */
export const Base64 = z.base64('must be base64 on one line (no line breaks or spaces; base64 -w0)')
