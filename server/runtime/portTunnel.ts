import type { IncomingMessage } from 'node:http'
import { connect, type Socket } from 'node:net'
import { closeWithAnswer } from '../http/closeWithAnswer'

/** The only hosts a tunnel may reach: the sandbox's own loopback. */
const loopback = new Set(['127.0.0.1', 'localhost', '[::1]'])

/** `127.0.0.1:8000` (a CONNECT request's target) as a loopback port, or undefined. */
export function tunnelPort(target: string | undefined): number | undefined {
  const match = /^(.+):(\d{1,5})$/.exec(target ?? '')
  if (!match || !loopback.has(match[1] ?? '')) return undefined
  const port = Number(match[2])
  return port >= 1 && port <= 65535 ? port : undefined
}

const answer = (socket: Socket, status: string, text: string) =>
  closeWithAnswer(socket, status, text, 'text/plain; charset=utf-8')

/**
 * `CONNECT 127.0.0.1:PORT` (our extension, not envd's): a byte tunnel to a port the sandbox
 * listens on, for the platform's router, which cannot reach into the sandbox's own network
 * otherwise. Only loopback targets; the access token is checked by the caller first.
 */
export function openPortTunnel(req: IncomingMessage, client: Socket, head: Buffer): void {
  client.on('error', () => {})
  const port = tunnelPort(req.url)
  if (port === undefined) {
    answer(client, '400 Bad Request', 'CONNECT takes 127.0.0.1:PORT, a port of this sandbox\n')
    return
  }
  const upstream = connect({ host: '127.0.0.1', port })
  let connected = false
  upstream.once('connect', () => {
    connected = true
    upstream.setNoDelay(true)
    client.setNoDelay(true)
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
    if (head.length > 0) upstream.write(head)
    upstream.pipe(client)
    client.pipe(upstream)
  })
  upstream.once('error', (err: NodeJS.ErrnoException) => {
    if (!connected) {
      answer(client, '502 Bad Gateway', `nothing listens on port ${port} (${err.code ?? err.message})\n`)
    } else client.destroy()
  })
  upstream.once('close', () => client.destroy())
  client.once('close', () => upstream.destroy())
}
