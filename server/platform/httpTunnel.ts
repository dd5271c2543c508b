import type { ClientRequest, IncomingHttpHeaders, IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { type RawData, type WebSocket, WebSocketServer } from 'ws'
import {
  type HttpTunnelRequestHead,
  type HttpTunnelResponseHead,
  httpTunnelEnd,
  httpTunnelProtocol,
  tunnelClose,
} from '../../src/contract/httpTunnel'
import { EnvelopeBoundary, isConnectStream } from './envelopeBoundary'
import { forwardable } from './forwardable'
import { writesOfThisTurn } from './writesOfThisTurn'

// The router's end of the HTTP tunnel (the exchange is described in src/contract/httpTunnel.ts).
// `ws` does the WebSocket framing: a well-kept library, and framing is not what we build.

/** Largest message: a request head, or a piece of a body (StreamInput sends at most 64 KiB). */
const maxMessageBytes = 1024 * 1024
/** Answer bytes queued on the socket beyond this pause the runtime's answer until they drain. */
const highWaterBytes = 1024 * 1024
/** Headers the tunnel itself decides: the body is streamed, so its length is not known up front. */
const tunnelOwned = new Set(['host', 'content-length', 'transfer-encoding'])

/** An answer the router gives itself, without the runtime (a 502 when the sandbox is unreachable). */
export interface OwnAnswer {
  status: number
  headers: Record<string, string>
  body: string | Buffer
}

/** What the router does for one tunnelled call. */
export interface TunnelCall {
  /** Opens the upstream call for a request head; rejects with the answer to give when it cannot. */
  open(head: HttpTunnelRequestHead): Promise<ClientRequest>
  /** The answer for an upstream call that failed before it answered. */
  notAnswering(err: NodeJS.ErrnoException): OwnAnswer
  /** The socket is open: `breakOff` ends the call at once; `closed` settles when it has ended. */
  opened(breakOff: () => void, closed: Promise<void>): void
}

/** The WebSocket upgrade of a request, when it asks for the tunnel. */
export function wantsHttpTunnel(req: IncomingMessage): boolean {
  return String(req.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .some((protocol) => protocol.trim() === httpTunnelProtocol)
}

/** RFC 9110's token: what a header name may be. */
const headerName = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/

function headOf(data: RawData, isBinary: boolean): HttpTunnelRequestHead | string {
  if (isBinary) return 'the first message must be the request head, as text'
  let head: unknown
  try {
    head = JSON.parse(String(data))
  } catch {
    return 'the request head is not JSON'
  }
  if (typeof head !== 'object' || head === null) return 'the request head must be an object'
  const { method, headers, ...rest } = head as Record<string, unknown>
  if (Object.keys(rest).length > 0) return `unknown field in the request head: ${Object.keys(rest)[0]}`
  if (method !== 'POST' && method !== 'GET') return 'method must be POST or GET'
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers))
    return 'headers must be an object'
  for (const [name, value] of Object.entries(headers)) {
    if (!headerName.test(name)) return `not a header name: ${JSON.stringify(name).slice(0, 40)}`
    if (typeof value !== 'string') return 'every header value must be a string'
    if (/[\r\n\0]/.test(value)) return `header ${name} has a line break or NUL in its value`
  }
  const own = Object.entries(headers as Record<string, string>).filter(
    ([name]) => !tunnelOwned.has(name.toLowerCase()),
  )
  return { method, headers: Object.fromEntries(own) }
}

const flatHeaders = (headers: IncomingHttpHeaders): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)]),
  )

/**
 * One tunnelled call: reads the head, opens the upstream call, streams the body up and the
 * answer down with backpressure both ways, and ends whichever side is left when the other goes.
 * Returns a function that breaks the call off (a paused or killed sandbox).
 */
function bridge(ws: WebSocket, socket: Duplex, call: TunnelCall): () => void {
  let upstream: ClientRequest | undefined
  let headSeen = false
  let answered = false
  let finished = false
  /** Body messages that came before the upstream call opened; `null` marks the body's end. */
  const early: (Buffer | null)[] = []
  const close = (code: number, reason: string) => {
    if (ws.readyState === ws.OPEN) ws.close(code, reason.slice(0, 120))
  }
  const sendHead = (head: HttpTunnelResponseHead) => {
    answered = true
    ws.send(JSON.stringify(head))
  }
  const answerOwn = ({ status, headers, body }: OwnAnswer) => {
    finished = true
    sendHead({ status, headers })
    ws.send(Buffer.from(body))
    close(tunnelClose.done, '')
  }
  const up = (piece: Buffer | null) => {
    if (!upstream) return void early.push(piece)
    if (piece === null) return void upstream.end()
    if (!upstream.write(piece)) {
      ws.pause()
      upstream.once('drain', () => ws.resume())
    }
  }
  const down = (answer: IncomingMessage) => {
    sendHead({ status: answer.statusCode ?? 502, headers: flatHeaders(forwardable(answer.headers)) })
    // Each piece goes out at once (a keystroke's echo waits for nothing) as a WebSocket frame. A
    // Connect stream's message ends only where an envelope ends: the page can do nothing with part
    // of one, and the browser joins the frames of a message itself, so the router copies nothing.
    const boundary = isConnectStream(answer.headers['content-type']) ? new EnvelopeBoundary() : undefined
    let messageOpen = false
    const batch = writesOfThisTurn(socket)
    const resumeIfDrained = () => {
      if (answer.isPaused() && ws.bufferedAmount < highWaterBytes) answer.resume()
    }
    answer.on('data', (chunk: Buffer) => {
      const whole = boundary ? boundary.feed(chunk) : true
      messageOpen = !whole
      batch()
      ws.send(chunk, { binary: true, fin: whole }, resumeIfDrained)
      if (ws.bufferedAmount >= highWaterBytes) answer.pause()
    })
    answer.on('end', () => {
      finished = true
      // A stream cut inside an envelope still ends its message, so the close is not lost in it.
      if (messageOpen) ws.send(Buffer.alloc(0), { binary: true, fin: true })
      close(tunnelClose.done, '')
    })
    // A runtime that dies mid-answer ends no stream: without this the client would wait forever.
    answer.on('close', () => {
      if (!answer.complete) close(tunnelClose.brokeOff, 'the runtime broke off its answer')
    })
  }
  const start = (head: HttpTunnelRequestHead) =>
    call.open(head).then(
      (request) => {
        upstream = request
        request.on('error', (err: NodeJS.ErrnoException) => {
          if (!answered) answerOwn(call.notAnswering(err))
          else close(tunnelClose.brokeOff, 'the runtime broke off its answer')
        })
        if (ws.readyState !== ws.OPEN) return void request.destroy()
        request.on('response', down)
        for (const piece of early.splice(0)) up(piece)
      },
      (own: OwnAnswer) => answerOwn(own),
    )
  ws.on('message', (data: RawData, isBinary) => {
    if (!headSeen) {
      headSeen = true
      const head = headOf(data, isBinary)
      if (typeof head === 'string') return close(tunnelClose.badRequest, head)
      return void start(head)
    }
    if (isBinary) return up(data as Buffer)
    if (String(data) === httpTunnelEnd) return up(null)
    close(tunnelClose.badRequest, `a text message after the head must be '${httpTunnelEnd}'`)
  })
  ws.on('error', () => ws.terminate())
  // A client that goes away takes its upstream call with it (the runtime keeps the process).
  ws.on('close', () => {
    if (!finished) upstream?.destroy()
  })
  return () => {
    upstream?.destroy()
    ws.terminate()
  }
}

/** The tunnel's WebSocket server, sharing the platform's HTTP server through its `upgrade` event. */
export function httpTunnel() {
  const server = new WebSocketServer({
    noServer: true,
    maxPayload: maxMessageBytes,
    perMessageDeflate: false,
    handleProtocols: (offered) => (offered.has(httpTunnelProtocol) ? httpTunnelProtocol : false),
  })
  return {
    accept(req: IncomingMessage, socket: Duplex, head: Buffer, call: TunnelCall): void {
      server.handleUpgrade(req, socket, head, (ws) => {
        const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()))
        call.opened(bridge(ws, socket, call), closed)
      })
    },
  }
}
