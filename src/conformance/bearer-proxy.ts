/**
 * A loopback reverse proxy that adds `Authorization: Bearer <token>` to every request it
 * forwards: for a client that cannot send a token, such as the official conformance suite (TCK),
 * in front of the conformance agent (whose routes all want one). Bodies and streams pass
 * through as they are. A test tool: it listens on 127.0.0.1 only, and never belongs in front of
 * real traffic.
 *
 *   A2A_PROXY_TOKEN=$(npx a2a token) [A2A_PROXY_TARGET=http://127.0.0.1:9999] \
 *     [A2A_PROXY_PORT=9998] npm run conformance:proxy
 *
 * Start the agent with PUBLIC_URL set to the proxy, so that its card sends clients there too.
 */
import { once } from 'node:events'
import { createServer, request as forward } from 'node:http'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'

export interface BearerProxyOptions {
  /** Where requests go, e.g. http://127.0.0.1:9999 (http only). */
  target: string
  token: string
  /** 0: any free port. */
  port: number
}

export async function startBearerProxy(
  options: BearerProxyOptions,
): Promise<{ url: string; close(): Promise<void> }> {
  const target = new URL(options.target)
  if (target.protocol !== 'http:') throw new Error(`the target must be http://, not ${target.href}`)
  const server: Server = createServer((incoming, outgoing) => {
    const upstream = forward(
      {
        hostname: target.hostname,
        port: target.port || 80,
        method: incoming.method,
        path: incoming.url,
        headers: {
          ...incoming.headers,
          host: target.host,
          authorization: `Bearer ${options.token}`,
        },
      },
      (response) => {
        outgoing.writeHead(response.statusCode ?? 502, response.headers)
        response.pipe(outgoing)
      },
    )
    upstream.on('error', (error) => {
      if (outgoing.headersSent) return outgoing.destroy()
      outgoing.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' })
      outgoing.end(`the proxy cannot reach ${target.origin}: ${error.message}\n`)
    })
    // A client that goes away takes its upstream request (and stream) with it.
    outgoing.on('close', () => upstream.destroy())
    incoming.pipe(upstream)
  })
  server.listen(options.port, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const token = process.env.A2A_PROXY_TOKEN
  if (!token) {
    process.stderr.write('Set A2A_PROXY_TOKEN, e.g. A2A_PROXY_TOKEN=$(npx a2a token)\n')
    process.exit(2)
  }
  const target = process.env.A2A_PROXY_TARGET ?? 'http://127.0.0.1:9999'
  const proxy = await startBearerProxy({
    target,
    token,
    port: Number(process.env.A2A_PROXY_PORT ?? 9998),
  })
  process.stdout.write(`Adding the token to every request: ${proxy.url} → ${target}\n`)
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void proxy.close().then(() => process.exit(0)))
  }
}
