import { connect, createServer, type Server, type Socket } from 'node:net'

// A slow link for tests and benches: a TCP proxy on loopback in front of a server, which delays
// every piece of data each way by a fixed time (a round trip to a distant sandbox), in order.
// At the TCP level, so every kind of traffic pays it alike: requests, streams, WebSockets, TLS.

export interface DelayingProxy {
  /** The proxy's port: reach the server through it. */
  port: number
  /** From now on, data towards the server waits (in order) until `release`. */
  hold(): void
  release(): void
  close(): Promise<void>
}

/** One direction of a connection: each piece goes on `delayMs` after it arrived, in order. */
function delayedPipe(from: Socket, to: Socket, delayMs: () => number, held?: () => Promise<void>): void {
  let tail = Promise.resolve()
  from.on('data', (data: Buffer) => {
    const due = Date.now() + delayMs()
    from.pause()
    tail = tail
      .then(() => held?.())
      .then(() => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, due - Date.now()))))
      .then(() => {
        if (!to.destroyed) to.write(data)
      })
    // Reading goes on at once: only the delivery waits, as on a long wire.
    from.resume()
  })
  from.on('end', () => {
    tail = tail.then(() => {
      to.end()
    })
  })
}

/**
 * Starts a proxy to `targetPort` on 127.0.0.1 that delays each direction by `oneWayMs`.
 * Host names are passed through untouched, so `*.localhost` names reach the same server.
 */
export async function startDelayingProxy(targetPort: number, oneWayMs: number): Promise<DelayingProxy> {
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
      () => oneWayMs,
      () => heldUntil ?? Promise.resolve(),
    )
    delayedPipe(upstream, client, () => oneWayMs)
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
