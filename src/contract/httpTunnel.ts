// One HTTP call to a sandbox's runtime carried over a WebSocket: the local stack's router offers
// it on every runtime host (`49983-{id}.localhost`), our addition beside envd's wire, which the
// router speaks unchanged to the runtime behind it. Why: over plain HTTP/1.1 a browser cannot
// stream a request body, so each keystroke would be a request of its own (a few milliseconds
// each in Chromium), and every open stream holds one of six connections per host. A WebSocket
// carries a keystroke in one small frame, and does not count toward that pool.
//
// The exchange, on a WebSocket opened to the call's URL with the subprotocol below:
// 1. The client's first message is text: the request head as JSON, `{ method, headers }`
//    (a browser's WebSocket cannot send headers of its own, and no secret goes in a URL).
// 2. Then binary messages are the request body, in order; the text message `end` ends it.
// 3. The router's first message is text: the answer's head as JSON, `{ status, headers }`.
// 4. Then binary messages are the answer's body, in order. The socket closes with 1000 once the
//    answer has ended; any other close means the call broke off (a body may be cut short).
// A client that closes the socket abandons the call.

export const httpTunnelProtocol = 'sandbox-ide.http-tunnel.v1'

/** The text message that ends a request body. */
export const httpTunnelEnd = 'end'

export interface HttpTunnelRequestHead {
  method: 'POST' | 'GET'
  headers: Record<string, string>
}

export interface HttpTunnelResponseHead {
  status: number
  headers: Record<string, string>
}

/**
 * Close codes: the answer ended (1000); the page that made the call is going away (1001, by the
 * browser); the request was malformed (1008); the call broke off (1011).
 */
export const tunnelClose = { done: 1000, goingAway: 1001, badRequest: 1008, brokeOff: 1011 } as const
