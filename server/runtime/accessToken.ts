import { timingSafeEqual } from 'node:crypto'
import type { ServerResponse } from 'node:http'

/** True when `given` equals `expected`, compared in constant time. */
export function tokensMatch(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** envd's own error body `{"code":<status>,"message":...}`; not a Connect error, even on RPC paths. */
export function sendEnvdError(res: ServerResponse, status: number, message: string): void {
  const body = JSON.stringify({ code: status, message })
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
    'Content-Length': Buffer.byteLength(body),
  })
  res.end(body)
}

export const unauthorizedMessage =
  'unauthorized access, please provide a valid access token or method signing if supported'
