import { Code, ConnectError } from '@connectrpc/connect'
import type { Channel } from './channel'

/** Whether a stream's signal aborted for its Connect-Timeout-Ms, not for its client leaving. */
const isDeadline = (reason: unknown) =>
  reason instanceof ConnectError && reason.code === Code.DeadlineExceeded

/**
 * Yields the channel's items, and a keepalive after every quiet `intervalMs` (the timer restarts
 * after each item, as envd's does), until the channel ends or `signal` aborts. A deadline
 * (Connect-Timeout-Ms) ends the stream with `deadline_exceeded`; a client that went away ends it
 * quietly. Races every wait against the signal, so a parked stream notices an abort at once.
 *
 * Each wait makes its own abort promise and drops its listener after: racing one long-lived
 * promise would add a reaction to it per item, and through those reactions keep every item
 * ever yielded (all of a terminal's output) alive until the stream ends.
 */
export async function* withKeepalive<T>(
  channel: Channel<T>,
  intervalMs: number,
  keepalive: () => T,
  signal: AbortSignal,
): AsyncGenerator<T> {
  let pending: Promise<IteratorResult<T>> | undefined
  while (!signal.aborted) {
    pending ??= channel.next()
    const result = await raceTickOrAbort(pending, intervalMs, signal)
    if (result === 'aborted') break
    if (result === 'tick') {
      yield keepalive()
      continue
    }
    pending = undefined
    if (result.done) return
    yield result.value
  }
  if (isDeadline(signal.reason)) throw signal.reason
}

/** `pending`'s result, or 'tick' after `ms`, or 'aborted'; leaves no timer or listener behind. */
async function raceTickOrAbort<R>(
  pending: Promise<R>,
  ms: number,
  signal: AbortSignal,
): Promise<R | 'tick' | 'aborted'> {
  let timer: NodeJS.Timeout | undefined
  let onAbort: () => void = () => {}
  try {
    return await Promise.race([
      pending,
      new Promise<'tick'>((resolve) => {
        timer = setTimeout(resolve, ms, 'tick')
      }),
      new Promise<'aborted'>((resolve) => {
        onAbort = () => resolve('aborted')
        signal.addEventListener('abort', onAbort, { once: true })
      }),
    ])
  } finally {
    clearTimeout(timer)
    signal.removeEventListener('abort', onAbort)
  }
}

/**
 * Runs `release` once: when the stream's client goes away (`signal` aborts), or when the returned
 * function is called (from the stream's `finally`). A stream whose client went away may never
 * reach its `finally`: a write after the socket closed returns false from Node's
 * `OutgoingMessage.write` and never calls back, so connect-node waits on it for ever and never
 * resumes the stream. What the stream holds (a process subscription, a watcher) must not wait on
 * that. A deadline is no departure: the client still reads, and the stream ends as it should.
 */
export function releaseWhenClientLeaves(signal: AbortSignal, release: () => void): () => void {
  let released = false
  const once = () => {
    if (released) return
    released = true
    signal.removeEventListener('abort', onAbort)
    release()
  }
  const onAbort = () => {
    if (!isDeadline(signal.reason)) once()
  }
  if (signal.aborted) onAbort()
  else signal.addEventListener('abort', onAbort, { once: true })
  return once
}
