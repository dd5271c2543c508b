import type { Interceptor, Transport } from '@connectrpc/connect'
import { createConnectTransport } from '@connectrpc/connect-web'

/** Most host shards a page spreads its long-lived streams over. */
export const maxShards = 64

/**
 * Over plain HTTP/1.1 a browser opens at most six connections per host name, and every open
 * stream (a terminal, a watch) holds one. On the local stack every `*.localhost` name reaches the
 * same router, so stream number `n` goes to its own host name `s{n}.49983-{id}.localhost`, in a
 * pool of its own. HTTPS runtimes (E2B) speak HTTP/2, where one connection carries every stream.
 */
export function shardedUrl(runtimeUrl: string, shard: number): string {
  const url = new URL(runtimeUrl)
  if (url.protocol !== 'http:' || !url.hostname.endsWith('.localhost')) return runtimeUrl
  url.hostname = `s${(shard % maxShards) + 1}.${url.hostname}`
  return url.toString().replace(/\/$/, '')
}

/** Adds the sandbox's access token to every call (none where the sandbox has none). */
function accessToken(token: string | null): Interceptor {
  return (next) => (req) => {
    if (token) req.header.set('X-Access-Token', token)
    return next(req)
  }
}

/**
 * A Connect transport to a sandbox runtime. JSON by default; terminal output streams use the
 * binary format, which carries bytes as they are instead of base64 in JSON (3x less work per byte).
 */
export function runtimeTransport(
  baseUrl: string,
  token: string | null,
  { binary = false, fetch }: { binary?: boolean; fetch?: typeof globalThis.fetch } = {},
): Transport {
  return createConnectTransport({
    baseUrl,
    useBinaryFormat: binary,
    interceptors: [accessToken(token)],
    ...(fetch ? { fetch } : {}),
  })
}

/** Headers for a long-lived stream: envd's keepalive, every 50 s as the e2b SDK asks. */
export const streamHeaders = { 'Keepalive-Ping-Interval': '50' }
