/**
 * TRUST_PROXY: which proxies may set X-Forwarded-For, and so the client address that rate limits
 * and logs use. `false`, `true` (any), a hop count, or comma-separated addresses and ranges as
 * Fastify's `trustProxy` takes them: an IP address, a CIDR range (`10.0.0.0/8`), an IPv4 range
 * with a netmask (`10.0.0.0/255.0.0.0`), or a named set (`loopback`, `linklocal`, `uniquelocal`).
 * A value Fastify would refuse is refused here, where the error names the setting.
 */
import { isIP, isIPv4 } from 'node:net'
import { z } from 'zod'

const NAMED = new Set(['loopback', 'linklocal', 'uniquelocal'])

type TrustProxy = boolean | string[] | ((address: string, hop: number) => boolean)

export const TrustProxySetting = z
  .string()
  .default('false')
  .refine(
    (value) => /^(true|false|\d+)$/.test(value) || addressesOf(value).every(isTrustedRange),
    'must be true, false, a hop count, or IP addresses and ranges (10.0.0.0/8), comma-separated',
  )
  .transform((value): TrustProxy => {
    if (value === 'true' || value === 'false') return value === 'true'
    // A hop count: trust that many proxies in front of this server.
    if (/^\d+$/.test(value)) return (_address, hop) => hop < Number(value)
    return addressesOf(value)
  })

const addressesOf = (value: string): string[] =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)

function isTrustedRange(item: string): boolean {
  if (NAMED.has(item)) return true
  const [address = '', range, ...rest] = item.split('/')
  const version = isIP(address)
  if (version === 0 || rest.length > 0) return false
  if (range === undefined) return true
  if (/^\d+$/.test(range)) return Number(range) <= (version === 4 ? 32 : 128)
  return version === 4 && isIPv4(range)
}
