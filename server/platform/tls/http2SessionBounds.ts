import type { ServerHttp2Session } from 'node:http2'

/** How long an HTTP/2 session may wait for a request's headers, and live with no open stream. */
export interface Http2SessionBounds {
  headersMs: number
  idleMs: number
  checkEveryMs: number
}

/**
 * Bounds an HTTP/2 session as Node's HTTP/1.1 server bounds a connection: a header block must be
 * whole within `headersMs` (the first one from the session's start: a client that sends the
 * preface and then nothing, or a HEADERS frame whose CONTINUATION never comes), and a session
 * with no open stream is closed (GOAWAY) after `idleMs`. A session with an open stream is never
 * cut, however quiet: terminals and watches are long-lived streams.
 *
 * Node has no such bound for HTTP/2, and `setTimeout` on the server or session is an inactivity
 * timer that destroys the session under a stream quiet for that long, so these are checked here.
 * A header block still arriving is invisible to JS but for `state.lastProcStreamID`: nghttp2
 * sets it when a HEADERS frame opens a stream, and Node emits 'stream' only at END_HEADERS.
 */
export function boundHttp2Session(session: ServerHttp2Session, bounds: Http2SessionBounds): void {
  let open = 0
  let lastStreamId = 0
  let idleSince = performance.now()
  // Since when a header block has been awaited: the first from the start, later ones from when
  // a check first saw one begun.
  let waitingSince: number | undefined = idleSince
  session.on('stream', (stream) => {
    open++
    lastStreamId = Math.max(lastStreamId, stream.id ?? 0)
    waitingSince = undefined
    stream.once('close', () => {
      if (--open === 0) idleSince = performance.now()
    })
  })
  const check = () => {
    if (open > 0 || session.closed || session.destroyed) return
    const now = performance.now()
    if (waitingSince === undefined && (session.state.lastProcStreamID ?? 0) > lastStreamId) waitingSince = now
    if (waitingSince !== undefined && now - waitingSince > bounds.headersMs) session.destroy()
    else if (now - idleSince > bounds.idleMs) session.close()
  }
  const timer = setInterval(check, bounds.checkEveryMs).unref()
  session.once('close', () => clearInterval(timer))
}
