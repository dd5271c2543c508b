import type { ServerResponse } from 'node:http'
import { constants, Http2ServerResponse } from 'node:http2'

/**
 * Breaks off a response whose body can no longer be finished (the runtime behind it died or was
 * paused) as Go's servers do when a handler aborts (envd; E2B's edge, a Go reverse proxy): over
 * HTTP/2 the stream is reset with INTERNAL_ERROR, which a client reads as a failed body (undici:
 * "terminated", on which the e2b SDK asks /health and says the sandbox was killed); over HTTP/1.1
 * the connection closes mid-body. Node's own `destroy()` resets an HTTP/2 stream with NO_ERROR,
 * which a client reads as a body that simply ended (Connect: "missing EndStream").
 */
export function breakOffResponse(res: ServerResponse): void {
  if (res instanceof Http2ServerResponse) res.stream.close(constants.NGHTTP2_INTERNAL_ERROR)
  else res.destroy()
}
