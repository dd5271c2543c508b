import type { Writable } from 'node:stream'

/**
 * Corks `socket` until this turn of the event loop is over, so that what is written meanwhile
 * leaves in one system call. A flood comes from the runtime in several reads per turn (about
 * 24 KiB each); each was its own write to the browser's socket. Call it before each write.
 */
export function writesOfThisTurn(socket: Writable): () => void {
  let corked = false
  return () => {
    if (corked) return
    corked = true
    socket.cork()
    setImmediate(() => {
      corked = false
      socket.uncork()
    })
  }
}
