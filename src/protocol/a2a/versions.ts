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
  // "1.0.1" is version 1.0: only major.minor is compared.
  const majorMinor = /^(\d+)\.(\d+)(?:\.\d+)?$/.exec(given)
  const version = majorMinor ? `${majorMinor[1]}.${majorMinor[2]}` : given
  if (version === '1.0' || version === '0.3') return version
  throw new VersionNotSupportedError(given, SUPPORTED_VERSIONS)
}
