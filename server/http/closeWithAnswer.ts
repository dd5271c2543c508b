import type { Duplex } from 'node:stream'

/**
 * Answers on a raw connection (a CONNECT or an upgrade, which no ServerResponse serves) and
 * closes it: the status line, the body's type and length, and the body.
 */
export function closeWithAnswer(socket: Duplex, status: string, body = '', contentType?: string): void {
  const type = contentType ? `Content-Type: ${contentType}\r\n` : ''
  socket.end(
    `HTTP/1.1 ${status}\r\n${type}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  )
}
