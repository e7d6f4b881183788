/**
 * What may explain a trail that does not start at seq 1. Only the Redis stream's cap drops
 * records, and `XADD MAXLEN ~ cap` never trims a stream below `cap` entries (it trims whole
 * nodes, and only while at least `cap` remain). So a stream that lacks seq 1 yet holds fewer
 * than `cap` entries lost its oldest records some other way (XDEL, XTRIM, a rewrite). One that
 * holds `cap` or more may have been trimmed: the verifier cannot tell, and says only that the
 * records before its first one are not kept.
 */

/** The Redis stream's cap and its length, read together with its oldest record. */
export interface StreamCap {
  /** The cap the server trims the stream to (AUDIT_STREAM_MAXLEN); 0: it is not capped. */
  maxLength: number
  /** How many entries the stream held when it was read. */
  length: number
}

const recordsBefore = (seq: number): string =>
  seq === 2 ? 'record seq 1 is' : `records seq 1-${seq - 1} are`

const records = (count: number): string => `${count} record${count === 1 ? '' : 's'}`

/**
 * Why a trail whose first record is `firstSeq` (> 1) is broken; undefined when `cap` explains
 * the records before it. Without a cap (a file, stdout) nothing explains them.
 */
export function unexplainedStart(firstSeq: number, cap?: StreamCap): string | undefined {
  const missing = `the trail starts at seq ${firstSeq}: ${recordsBefore(firstSeq)} missing`
  if (cap === undefined) return `${missing}, and no cap drops records from it`
  if (cap.maxLength === 0) return `${missing}, and the stream is not capped`
  if (cap.length >= cap.maxLength) return undefined
  return (
    `${missing}, and the cap does not explain it: the stream holds ${records(cap.length)}, ` +
    `and a cap of ${cap.maxLength} never trims it below ${cap.maxLength}`
  )
}
