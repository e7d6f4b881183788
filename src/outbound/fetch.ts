/**
 * The fetch the server reaches other agents with (the registry's card reads and health checks,
 * the orchestrator's calls): the global fetch, except that it never talks to a link-local
 * address (169.254.0.0/16, fe80::/10), where clouds serve instance metadata and credentials. An
 * admin could register such a URL, and any agent's card can name one as its endpoint.
 *
 * The address is checked on the connected socket, before a byte is sent: a redirect, a DNS
 * answer that changes between lookups, or an IP literal all meet the same check. The refusal is
 * a fetch failure whose cause says `refused destination <address>`.
 */
import { Agent, buildConnector } from 'undici'

const connect = buildConnector({})

/** IPv4 169.254/16 (also IPv4-mapped in IPv6) and IPv6 fe80::/10. */
export function isLinkLocal(address: string): boolean {
  const v4 = address.replace(/^::ffff:/i, '')
  return v4.startsWith('169.254.') || /^fe[89ab][0-9a-f]:/i.test(address)
}

export class RefusedDestinationError extends Error {
  readonly code = 'EREFUSEDDEST'
  constructor(readonly address: string) {
    super(`refused destination ${address}`)
  }
}

/** A fetch that refuses to talk to any address `refuse` holds true for. */
export function refusingFetch(refuse: (address: string) => boolean): typeof fetch {
  const dispatcher = new Agent({
    connect(options, callback) {
      connect(options, (error, socket) => {
        if (error) return callback(error, null)
        const address = socket.remoteAddress ?? ''
        if (!refuse(address)) return callback(null, socket)
        socket.destroy()
        return callback(new RefusedDestinationError(address), null)
      })
    },
  })
  return (input, init) => fetch(input, { ...init, dispatcher })
}

export const outboundFetch = refusingFetch(isLinkLocal)
