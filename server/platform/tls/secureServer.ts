import type { IncomingMessage, ServerResponse } from 'node:http'
import { createSecureServer, type Http2SecureServer } from 'node:http2'
import type { Socket } from 'node:net'
import { longLivedServerOptions } from '../../http/longLivedServerOptions'
import { boundHttp2Session, type Http2SessionBounds } from './http2SessionBounds'

/** An HTTPS server that speaks HTTP/2 and HTTP/1.1, and can drop every connection at once. */
export interface SecureServer extends Http2SecureServer {
  /** Destroys every open connection (the TLS socket under each HTTP/2 session or HTTP/1.1 keep-alive). */
  closeAllConnections(): void
}

/** How long a client may take before it is cut off, and how long an idle connection lives. */
export interface SecureServerBounds extends Http2SessionBounds {
  /** From the TCP connection to the TLS handshake done. */
  handshakeMs: number
}

/**
 * As the plain server (`longLivedServerOptions`): a request's headers within 10 s, checked every
 * second, and an idle connection kept as long as envd's (640 s). Before them, 4 s for the TLS
 * handshake (a round trip or two), so a client that stalls anywhere is cut off within 15 s.
 */
export const secureServerBounds: SecureServerBounds = {
  handshakeMs: 4_000,
  headersMs: longLivedServerOptions.headersTimeout,
  idleMs: longLivedServerOptions.keepAliveTimeout,
  checkEveryMs: longLivedServerOptions.connectionsCheckingInterval,
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
  bounds: SecureServerBounds = secureServerBounds,
): SecureServer {
  const options = {
    ...credentials,
    allowHTTP1: true,
    // Node's handshake timeout runs from the TCP connection and is not renewed by a client
    // trickling its ClientHello (tried: Node 20); its default is 120 s.
    handshakeTimeout: bounds.handshakeMs,
    // As Go's servers (issue 45): without it Node advertises no limit.
    settings: { maxConcurrentStreams: 250 },
  }
  const server = createSecureServer(options, (req, res) => {
    // HTTP/2 carries the host as `:authority`; the router and the IDE API read `Host`.
    if (req.httpVersionMajor === 2 && req.headers.host === undefined) {
      const authority = req.headers[':authority']
      if (authority !== undefined) req.headers.host = authority
    }
    handler(req as unknown as IncomingMessage, res as unknown as ServerResponse)
  })
  // HTTP/1.1 connections: with allowHTTP1, Node 20 runs http's own connection checker on them
  // (headers 60 s, checked every 30 s by default), so they get the plain server's 408 and close
  // (set before listen, which starts the checker). No request timeout, as the plain server:
  // terminals and watches are long-lived streams, and a client stream's body (StreamInput over
  // HTTP/1.1) would otherwise be cut after 5 minutes.
  Object.assign(server, {
    requestTimeout: 0,
    headersTimeout: bounds.headersMs,
    connectionsCheckingInterval: bounds.checkEveryMs,
    keepAliveTimeout: bounds.idleMs,
  })
  // No inactivity timeout: on a session it would cut a quiet terminal's stream.
  server.setTimeout(0)
  // HTTP/2 sessions: Node bounds neither their headers nor their idle time.
  server.on('session', (session) => boundHttp2Session(session, bounds))
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
