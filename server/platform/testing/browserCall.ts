import { rawRequest } from './rawHttp'

/** What a page's call to the IDE API carries besides the path. */
export interface BrowserCallOptions {
  body?: unknown
  headers?: Record<string, string>
  /** The address to connect to (default: loopback), as another machine would. */
  address?: string
  /** The Host header (default: the stack's own name the test gives). */
  hostHeader?: string
}

/**
 * A call to a stack's IDE API as the IDE's page makes it (same-origin, no bearer token: a
 * browser's cookie and page key go in `headers`); the answer with its JSON.
 */
export function browserCall(
  stack: { port: number; host: string },
  method: string,
  path: string,
  { body, headers = {}, address, hostHeader }: BrowserCallOptions = {},
) {
  return rawRequest({
    port: stack.port,
    ...(address ? { address } : {}),
    host: hostHeader ?? stack.host,
    method,
    path: `/ide/api${path}`,
    headers: {
      'X-Sandbox-IDE': '1',
      'Sec-Fetch-Site': 'same-origin',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  }).then((res) => ({ ...res, json: res.text ? JSON.parse(res.text) : undefined }))
}
