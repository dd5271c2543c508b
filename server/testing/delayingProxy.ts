import { connect, createServer, type Server, type Socket } from 'node:net'

// A slow link for tests and benches: a TCP proxy on loopback in front of a server, which delays
// every piece of data each way by a fixed time (a round trip to a distant sandbox), in order,
// and may limit each direction's bandwidth, shared by all its connections as one link's is.
// At the TCP level, so every kind of traffic pays it alike: requests, streams, WebSockets, TLS.

export interface DelayingProxy {
  /** The proxy's port: reach the server through it. */
  port: number
  /** From now on, data towards the server waits (in order) until `release`. */
  hold(): void
  release(): void
  close(): Promise<void>
}

export interface LinkOptions {
  /** Each direction's bandwidth, bytes per second; unlimited without. */
  bytesPerSecond?: number
}

/** One direction of the link: when it is free to start sending the next piece. */
class Direction {
  private freeAt = 0

  constructor(private readonly bytesPerSecond: number | undefined) {}

  get limited(): boolean {
    return this.bytesPerSecond !== undefined
  }

  /** When a piece of `bytes` that is ready now has been sent whole. */
  sent(bytes: number): number {
    if (this.bytesPerSecond === undefined) return Date.now()
    this.freeAt = Math.max(Date.now(), this.freeAt) + (bytes / this.bytesPerSecond) * 1000
    return this.freeAt
  }
}

/**
 * What a limited link buffers before it stops reading (a router's queue): beyond it, TCP's own
 * flow control holds the sender back, as on a real link.
 */
const linkQueueBytes = 256 * 1024

/**
 * One direction of a connection: each piece goes on `delayMs` after it is sent over `link`, in
 * order. Reading goes on at once: only the delivery waits, as on a long wire; a link with limited
 * bandwidth stops reading while its queue is full.
 */
function delayedPipe(
  from: Socket,
  to: Socket,
  link: Direction,
  delayMs: () => number,
  held?: () => Promise<void>,
): void {
  let tail = Promise.resolve()
  let queued = 0
  from.on('data', (data: Buffer) => {
    const due = link.sent(data.length) + delayMs()
    queued += data.length
    if (link.limited && queued > linkQueueBytes) from.pause()
    tail = tail
      .then(() => held?.())
      .then(() => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, due - Date.now()))))
      .then(() => {
        queued -= data.length
        if (!to.destroyed) to.write(data)
        if (from.isPaused() && queued <= linkQueueBytes / 2) from.resume()
      })
  })
  from.on('end', () => {
    tail = tail.then(() => {
      to.end()
    })
  })
}

/**
 * Starts a proxy to `targetPort` on 127.0.0.1 that delays each direction by `oneWayMs`, with
 * the bandwidth `link` gives. Host names are passed through untouched, so `*.localhost` names
 * reach the same server.
 */
export async function startDelayingProxy(
  targetPort: number,
  oneWayMs: number,
  link: LinkOptions = {},
): Promise<DelayingProxy> {
  const up = new Direction(link.bytesPerSecond)
  const down = new Direction(link.bytesPerSecond)
  let heldUntil: Promise<void> | undefined
  let release = () => {}
  const sockets = new Set<Socket>()
  const server: Server = createServer((client) => {
    const upstream = connect({ host: '127.0.0.1', port: targetPort })
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.setNoDelay(true)
      socket.on('error', () => {
        client.destroy()
        upstream.destroy()
      })
      socket.on('close', () => {
        sockets.delete(socket)
        client.destroy()
        upstream.destroy()
      })
    }
    delayedPipe(
      client,
      upstream,
      up,
      () => oneWayMs,
      () => heldUntil ?? Promise.resolve(),
    )
    delayedPipe(upstream, client, down, () => oneWayMs)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (typeof address !== 'object' || address === null) throw new Error('the proxy has no port')
  return {
    port: address.port,
    hold() {
      heldUntil ??= new Promise<void>((resolve) => {
        release = resolve
      })
    },
    release() {
      heldUntil = undefined
      release()
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
