import type { IncomingMessage, ServerResponse } from 'node:http'

/** Response headers a browser may read: envd's list, plus our replay, output-window and attached-pids headers. */
const exposedHeaders = [
  'Grpc-Status',
  'Grpc-Message',
  'Grpc-Status-Details-Bin',
  'Location',
  'Cache-Control',
  'X-Content-Type-Options',
  'X-Replay-Start',
  'X-Replay-End',
  'X-Output-Window',
  'X-Output-Stream',
  'X-Output-Flush',
  'X-Attached-Pids',
].join(', ')

const allowedMethods = 'HEAD, GET, POST, PUT, PATCH, DELETE'

/**
 * envd's CORS (envd-api.md §3): any origin, never credentials, echoed request headers.
 * Sets headers on every response and answers a preflight itself; returns true when it did.
 */
export function applyCors(req: IncomingMessage, res: ServerResponse): boolean {
  const origin = req.headers.origin
  const preflightMethod = req.headers['access-control-request-method']
  if (req.method === 'OPTIONS' && preflightMethod) {
    res.setHeader('Vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers')
    if (origin === undefined) {
      res.writeHead(204).end()
      return true
    }
    const method = preflightMethod.toUpperCase()
    res.setHeader('Access-Control-Allow-Origin', '*')
    if (allowedMethods.includes(method)) res.setHeader('Access-Control-Allow-Methods', method)
    const requested = req.headers['access-control-request-headers']
    if (requested) res.setHeader('Access-Control-Allow-Headers', requested)
    res.setHeader('Access-Control-Max-Age', '7200')
    res.writeHead(204).end()
    return true
  }
  res.setHeader('Vary', 'Origin')
  if (origin !== undefined) {
    res.setHeader('Access-Control-Allow-Origin', '*')
    res.setHeader('Access-Control-Expose-Headers', exposedHeaders)
  }
  return false
}
