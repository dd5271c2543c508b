import type { IncomingMessage, ServerResponse } from 'node:http'

/** Most of an unread request body a server reads and throws away to keep the connection: above every body limit of the stack (8 MiB for an RPC). */
export const drainLimitBytes = 16 * 1024 * 1024
/** How long it goes on reading a refused body before it closes the connection instead. */
export const drainLimitMs = 5_000

/**
 * Keeps an early answer from poisoning its connection. Node throws away the body of a request
 * nobody read, but not of one a handler began to read and gave up on (a size check that stopped
 * at 64 KiB, a pipe to a runtime that answered 401): its rest stays in the socket, unread, and
 * the next request on that keep-alive connection waits forever. So once the answer is sent, the
 * rest of the body is read and thrown away, and the connection serves the next request. A client
 * that sends more than 16 MiB, or takes longer than 5 s, has its connection closed instead. Only
 * a request a handler destroyed gets `Connection: close` (nothing can read its rest): for the
 * others Node would destroy the socket while the client still sends, and the reset can take the
 * answer with it.
 */
export function settleUnreadBody(req: IncomingMessage, res: ServerResponse): void {
  // HTTP/2 streams are independent: an abandoned one poisons nothing.
  if (req.httpVersionMajor !== 1) return
  // Taken now: a request that is destroyed lets go of its socket.
  const socket = req.socket
  // A handler that destroyed the request (connect-node does, refusing an oversized message)
  // left the rest of its body in the socket, where no one will read it: the answer says the
  // connection ends with it, so the client does not send its next request there.
  const writeHead = res.writeHead
  res.writeHead = ((...args: Parameters<typeof writeHead>) => {
    if (req.destroyed && !req.complete) res.setHeader('Connection', 'close')
    return writeHead.apply(res, args)
  }) as typeof writeHead
  res.once('finish', () => {
    if (req.complete) return
    if (req.destroyed) return void socket.destroy()
    let read = 0
    const close = () => {
      clearTimeout(timer)
      socket.destroy()
    }
    const timer = setTimeout(close, drainLimitMs)
    timer.unref()
    req.unpipe()
    req.removeAllListeners('data')
    req.on('data', (chunk: Buffer) => {
      read += chunk.length
      if (read > drainLimitBytes) close()
    })
    req.once('end', () => clearTimeout(timer))
    req.resume()
  })
}
