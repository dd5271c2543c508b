// A student's way to their sandbox, as their page goes: the runtime URL and token their session
// gave (`49983-{id}.localhost`, through the stack's router by host name), the generated Connect
// clients for process and filesystem calls, /files for saves, and the sandbox's ports by name.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns'
import { type Client, createClient } from '@connectrpc/connect'
import { createConnectTransport } from '@connectrpc/connect-node'
import { rawRequest } from '../../server/platform/testing/rawHttp'
import { Filesystem } from '../../src/gen/filesystem_pb'
import { Process } from '../../src/gen/process_pb'

export interface StudentRuntime {
  sandboxId: string
  /** The runtime's address, as the session gave it (for /output-ack and /files). */
  runtimeUrl: string
  proc: Client<typeof Process>
  fs: Client<typeof Filesystem>
  /** POST to the runtime (`/files?…`, `/output-ack?…`) as the page does; rejects on any status but 2xx. */
  post(pathAndQuery: string, body: string, headers?: Record<string, string>): Promise<void>
  /** GETs a file's text. */
  readFile(path: string): Promise<string>
  /** GETs `path` of a port of the sandbox by its name (`{port}-{id}.localhost`), as the preview loads it. */
  getPort(port: number, path: string): Promise<{ status: number; text: string }>
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void

/** `*.localhost` is loopback, as browsers resolve it (RFC 6761); the C library here does not. */
function lookupWithLocalhost(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  if (!/(^|\.)localhost\.?$/i.test(hostname)) {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err || options.all) callback(err, addresses ?? [])
      else callback(null, addresses[0]?.address ?? '', addresses[0]?.family)
    })
    return
  }
  if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }])
  else callback(null, '127.0.0.1', 4)
}

/** Clients of one student's runtime, from what their session said. */
export function studentRuntime(session: {
  sandboxId: string
  runtimeUrl: string
  accessToken: string | null
}): StudentRuntime {
  const url = new URL(session.runtimeUrl)
  if (!url.hostname.endsWith('.localhost'))
    throw new Error(`the session gave ${session.runtimeUrl}, not a sandbox name under localhost`)
  const auth: Record<string, string> = session.accessToken ? { 'X-Access-Token': session.accessToken } : {}
  const transport = createConnectTransport({
    baseUrl: session.runtimeUrl,
    httpVersion: '1.1',
    nodeOptions: { lookup: lookupWithLocalhost },
    interceptors: [
      (next) => (req) => {
        for (const [name, value] of Object.entries(auth)) req.header.set(name, value)
        return next(req)
      },
    ],
  })
  const stackPort = Number(url.port)
  // The stack's router by host name: the Host header names the sandbox and its port.
  const onPort = (port: number, method: string, path: string, body?: string, headers = {}) =>
    rawRequest({
      port: stackPort,
      host: `${port}-${session.sandboxId}.localhost:${stackPort}`,
      method,
      path,
      headers,
      ...(body === undefined ? {} : { body }),
    })
  const runtimePort = Number(url.hostname.split('-')[0])
  return {
    sandboxId: session.sandboxId,
    runtimeUrl: session.runtimeUrl,
    proc: createClient(Process, transport),
    fs: createClient(Filesystem, transport),
    async post(pathAndQuery, body, headers = {}) {
      const res = await onPort(runtimePort, 'POST', pathAndQuery, body, { ...auth, ...headers })
      if (res.status < 200 || res.status >= 300)
        throw new Error(
          `POST ${pathAndQuery.split('?')[0]} answered ${res.status}: ${res.text.slice(0, 200)}`,
        )
    },
    async readFile(path) {
      const res = await onPort(runtimePort, 'GET', `/files?${new URLSearchParams({ path })}`, undefined, auth)
      if (res.status !== 200) throw new Error(`GET /files answered ${res.status}: ${res.text.slice(0, 200)}`)
      return res.text
    },
    getPort: async (port, path) => {
      const res = await onPort(port, 'GET', path)
      return { status: res.status, text: res.text }
    },
  }
}
