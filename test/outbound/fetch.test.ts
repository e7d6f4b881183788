/**
 * The server's outbound fetch refuses link-local destinations on the connected socket. Tested
 * with loopback standing in for the refused range (this machine has no link-local listener):
 * a direct request and a redirect are refused before the server behind them sees anything.
 */
import { createServer } from 'node:http'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { isLinkLocal, refusingFetch } from '../../src/outbound/fetch.js'

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))))
})

/** A server on `host` counting its requests; `handler` answers them. */
async function serve(
  host: string,
  handler: (url: string) => { status: number; location?: string },
) {
  const seen: string[] = []
  const server = createServer((request, response) => {
    seen.push(request.url ?? '')
    const { status, location } = handler(request.url ?? '')
    response.writeHead(status, location ? { location } : {}).end('{}')
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  return { port: (server.address() as AddressInfo).port, seen }
}

const refuseIPv4Loopback = refusingFetch((address) => address === '127.0.0.1')

describe('outbound fetch', () => {
  it('knows the link-local ranges, IPv4, IPv4-mapped and IPv6', () => {
    for (const address of [
      '169.254.169.254',
      '169.254.0.1',
      '::ffff:169.254.169.254',
      'fe80::1',
      'FEBF::1',
    ]) {
      expect(isLinkLocal(address), address).toBe(true)
    }
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '169.255.0.1',
      '::1',
      'fec0::1',
      '2001:db8::1',
    ]) {
      expect(isLinkLocal(address), address).toBe(false)
    }
  })

  it('refuses a refused address before sending anything, and says why', async () => {
    const target = await serve('127.0.0.1', () => ({ status: 200 }))
    const failure = await refuseIPv4Loopback(`http://127.0.0.1:${target.port}/card`).catch(
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(TypeError)
    expect((failure as Error).cause).toMatchObject({
      code: 'EREFUSEDDEST',
      message: 'refused destination 127.0.0.1',
    })
    expect(target.seen).toEqual([])
  })

  it('refuses a redirect to a refused address, and lets other addresses through', async () => {
    const target = await serve('127.0.0.1', () => ({ status: 200 }))
    const redirect = await serve('::1', () => ({
      status: 302,
      location: `http://127.0.0.1:${target.port}/metadata`,
    }))
    const allowed = await refuseIPv4Loopback(`http://[::1]:${redirect.port}/`, {
      redirect: 'manual',
    })
    expect(allowed.status).toBe(302)
    await expect(refuseIPv4Loopback(`http://[::1]:${redirect.port}/`)).rejects.toThrow(TypeError)
    expect(redirect.seen).toEqual(['/', '/'])
    expect(target.seen).toEqual([])
  })
})
