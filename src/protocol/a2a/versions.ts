/**
 * Which A2A protocol version a request speaks: the `A2A-Version` header (or query parameter).
 * An empty or missing value means 0.3; patch numbers are never negotiated.
 */
import { VersionNotSupportedError } from '../../domain/errors.js'

export type ProtocolVersion = '1.0' | '0.3'

export const SUPPORTED_VERSIONS: readonly ProtocolVersion[] = ['1.0', '0.3']

export function protocolVersionOf(value: string | string[] | undefined): ProtocolVersion {
  const given = (Array.isArray(value) ? value[0] : value)?.trim() ?? ''
  if (given === '') return '0.3'
  const version = given.includes(',') ? repeatedVersion(given) : majorMinorOf(given)
  if (version === '1.0' || version === '0.3') return version
  throw new VersionNotSupportedError(given, SUPPORTED_VERSIONS)
}

/**
 * A header sent twice arrives joined ("1.0, 1.0"): the same version twice is that version;
 * different ones are none.
 */
function repeatedVersion(given: string): string | undefined {
  const versions = new Set(given.split(',').map((one) => majorMinorOf(one.trim())))
  return versions.size === 1 ? [...versions][0] : undefined
}

/** "1.0.1" is version 1.0: only major.minor is compared. */
function majorMinorOf(given: string): string {
  const majorMinor = /^(\d+)\.(\d+)(?:\.\d+)?$/.exec(given)
  return majorMinor ? `${majorMinor[1]}.${majorMinor[2]}` : given
}
