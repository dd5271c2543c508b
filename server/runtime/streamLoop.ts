import { Code, ConnectError } from '@connectrpc/connect'
import type { Channel } from './channel'

/**
 * Yields the channel's items, and a keepalive after every quiet `intervalMs` (the timer restarts
 * after each item, as envd's does), until the channel ends or `signal` aborts. A deadline
 * (Connect-Timeout-Ms) ends the stream with `deadline_exceeded`; a client that went away ends it
 * quietly. Races every wait against the signal, so a parked stream notices an abort at once.
 */
export async function* withKeepalive<T>(
  channel: Channel<T>,
  intervalMs: number,
  keepalive: () => T,
  signal: AbortSignal,
): AsyncGenerator<T> {
  let onAbort: () => void = () => {}
  const aborted = new Promise<'aborted'>((resolve) => {
    onAbort = () => resolve('aborted')
    signal.addEventListener('abort', onAbort, { once: true })
  })
  let pending: Promise<IteratorResult<T>> | undefined
  let timer: NodeJS.Timeout | undefined
  try {
    while (!signal.aborted) {
      pending ??= channel.next()
      const tick = new Promise<'tick'>((resolve) => {
        timer = setTimeout(resolve, intervalMs, 'tick')
      })
      const result = await Promise.race([pending, tick, aborted])
      clearTimeout(timer)
      if (result === 'aborted') break
      if (result === 'tick') {
        yield keepalive()
        continue
      }
      pending = undefined
      if (result.done) return
      yield result.value
    }
    const reason = signal.reason
    if (reason instanceof ConnectError && reason.code === Code.DeadlineExceeded) throw reason
  } finally {
    clearTimeout(timer)
    signal.removeEventListener('abort', onAbort)
  }
}
