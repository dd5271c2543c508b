// The terminal bench's baselines: a server with nothing behind it (no runtime, no PTY, no
// router), so the page's own share of a figure shows. It streams the bytes of the flood, and it
// echoes keys straight back, as a terminal's shell would echo them, the way the terminal sends
// them: a request per key over HTTP/1.1, one streamed upload over HTTP/2.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { createSecureServer } from 'node:http2'
import type { AddressInfo } from 'node:net'
import { ptyBytes } from './ptyBytes'

export interface BaselineServer {
  url: string
  close(): Promise<void>
}

const floodWriteBytes = 64 * 1024
/** The flood's bytes, made once per size (32 MiB take a while). */
let floodBytes: { key: string; bytes: Uint8Array } | undefined

/** Starts on a free loopback port; with `tls`, HTTPS with HTTP/2 (and HTTP/1.1) on that certificate. */
export async function startBaselineServer(tls?: { key: string; cert: string }): Promise<BaselineServer> {
  let echo: ServerResponse | undefined
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    // The bench page is on the platform's origin: every answer is cross-origin.
    res.setHeader('Access-Control-Allow-Origin', '*')
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'Access-Control-Allow-Methods': 'GET, POST',
        'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? '',
        'Access-Control-Max-Age': '7200',
      })
      res.end()
      return
    }
    const url = new URL(req.url ?? '/', 'http://baseline')
    if (url.pathname === '/flood') return flood(res, url)
    if (url.pathname === '/echo') {
      echo?.end()
      echo = res
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Cache-Control': 'no-store' })
      res.flushHeaders()
      return
    }
    if (url.pathname === '/keys' && req.method === 'POST') {
      // A key, or every key of a streamed upload, goes back on the echo stream as it arrives.
      req.on('data', (chunk: Buffer) => echo?.write(chunk))
      req.on('end', () => res.writeHead(204).end())
      return
    }
    res.writeHead(404).end()
  }
  const server = tls
    ? createSecureServer({ ...tls, allowHTTP1: true }, handle as never)
    : createServer({ keepAliveTimeout: 60_000 }, handle)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        echo?.end()
        server.close(() => resolve())
        if ('closeAllConnections' in server) server.closeAllConnections()
      }),
  }
}

/** `GET /flood?line=…&bytes=N`: the flood's bytes as a PTY sends them, in 64 KiB writes, as fast as they are read. */
function flood(res: ServerResponse, url: URL): void {
  const line = url.searchParams.get('line') ?? 'x'
  const size = Number(url.searchParams.get('bytes') ?? 0)
  if (floodBytes?.key !== `${size} ${line}`)
    floodBytes = { key: `${size} ${line}`, bytes: ptyBytes(line, size) }
  const { bytes } = floodBytes
  res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Cache-Control': 'no-store' })
  let at = 0
  const pump = () => {
    while (at < bytes.length) {
      const more = res.write(bytes.subarray(at, at + floodWriteBytes))
      at += floodWriteBytes
      if (!more) return void res.once('drain', pump)
    }
    res.end()
  }
  pump()
}
