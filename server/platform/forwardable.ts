import type { IncomingHttpHeaders } from 'node:http'

/**
 * Headers that belong to one hop and must not be forwarded; HTTP/2 also refuses to send the
 * connection-specific ones (`proxy-connection`, `http2-settings`) in a response.
 */
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'http2-settings',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
])

/**
 * The end-to-end headers: without hop-by-hop ones, those a `Connection` header names, and
 * HTTP/2 pseudo-headers (`:path`, `:authority`…), which the HTTP/1.1 hop to the runtime cannot carry.
 */
export function forwardable(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const named = new Set(
    String(headers.connection ?? '')
      .toLowerCase()
      .split(',')
      .map((name) => name.trim()),
  )
  return Object.fromEntries(
    Object.entries(headers).filter(
      ([name]) => !hopByHop.has(name) && !named.has(name) && !name.startsWith(':'),
    ),
  )
}
