import type { IncomingMessage, ServerResponse } from 'node:http'
import { createSecureServer, type Http2SecureServer } from 'node:http2'
import type { Socket } from 'node:net'

/** An HTTPS server that speaks HTTP/2 and HTTP/1.1, and can drop every connection at once. */
export interface SecureServer extends Http2SecureServer {
  /** Destroys every open connection (the TLS socket under each HTTP/2 session or HTTP/1.1 keep-alive). */
  closeAllConnections(): void
}

/**
 * An HTTPS server for the platform's request handler: HTTP/2 for browsers (one connection for
 * every stream, and the only way they stream a request body), HTTP/1.1 for everything else
 * (curl, the e2b SDK, older clients), chosen by ALPN. The handler is the one the plain HTTP
 * server runs: the http2 compatibility API gives it request and response objects with the same
 * headers, url, method, streaming body and writeHead/setHeader/end/pipe it uses.
 */
export function secureServer(
  credentials: { key: string; cert: string },
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): SecureServer {
  const server = createSecureServer({ ...credentials, allowHTTP1: true }, (req, res) => {
    // HTTP/2 carries the host as `:authority`; the router and the IDE API read `Host`.
    if (req.httpVersionMajor === 2 && req.headers.host === undefined) {
      const authority = req.headers[':authority']
      if (authority !== undefined) req.headers.host = authority
    }
    handler(req as unknown as IncomingMessage, res as unknown as ServerResponse)
  })
  // As the plain server: terminals and watches are long-lived streams, and a client stream's
  // body (StreamInput over HTTP/1.1) would otherwise be cut by the 5-minute request timeout.
  Object.assign(server, { requestTimeout: 0, keepAliveTimeout: 640_000 })
  server.setTimeout(0)
  // Tracked from the TCP connection, not the TLS handshake: a client may already be sending
  // before the server has seen its handshake finish.
  const sockets = new Set<Socket>()
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  return Object.assign(server, {
    closeAllConnections: () => {
      for (const socket of sockets) socket.destroy()
    },
  })
}
