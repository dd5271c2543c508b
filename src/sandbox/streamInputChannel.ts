import {
  openStreamInput,
  type StreamInputCall,
  StreamInputHttpError,
  type StreamInputTarget,
  supportsRequestStreams,
} from '../api/streamInputTransport'
import { IdleTimer } from '../common/IdleTimer'
import type { InputChannel } from './inputChannel'
import { takeBytes } from './takeBytes'

export interface StreamInputChannelOptions {
  /** Where to stream; undefined until the process is known (input then waits for `retry`). */
  target(): StreamInputTarget | undefined
  /** Makes the SendInput channel this terminal switches to, for good, when streaming fails. */
  fallback(): InputChannel
  /** Told once, with the reason, when a failure made the terminal switch to SendInput. */
  onFallback?(reason: string): void
  /** Whether the browser's fetch streams a request body (tests replace it). */
  supportsStreams?: () => boolean
  /** Opens a call (tests give a fake). */
  open?(target: StreamInputTarget): StreamInputCall
  /** A burst of typing ends, and is acknowledged, after this much silence. */
  burstIdleMs?: number
  /** ...or once it carried this many bytes, so a big paste goes out in acknowledged pieces. */
  maxBurstBytes?: number
  /** Never cut a write across two calls (input others write to as well; see takeBytes). */
  wholeWrites?: boolean
}

/** One StreamInput call and what was written to it, kept until the runtime acknowledges it. */
interface Burst {
  call: StreamInputCall
  written: Uint8Array[]
  bytes: number
  ending: boolean
}

function reasonOf(err: unknown): string {
  if (err instanceof StreamInputHttpError) return err.message
  if (err instanceof Error) return `${err.name}: ${err.message}`
  return String(err)
}

/**
 * Keystrokes for one process over StreamInput: each keystroke goes out as soon as it is typed,
 * with no round trip to wait for, on one call per burst of typing.
 *
 * StreamInput says what the runtime accepted only when the call ends (its `{}`), so a call is
 * ended after a short silence or a size limit and the bytes written to it are kept until then;
 * at most one call is open, and input typed while one ends waits for it, so order is kept.
 *
 * Any failure (a TypeError from fetch where the browser could not stream, a 505, an HTTP or
 * Connect error, a dropped connection) switches this terminal to SendInput for good, and the
 * bytes of the failed call are sent again there, ahead of anything typed later. The trade-off:
 * when a connection drops mid-call the runtime may have received part of it, and that part is
 * then typed twice. We prefer that to losing it, as InputQueue does when a SendInput call fails
 * after the runtime ran it: a missing keystroke is silent, a repeated one shows in the echo.
 * The short burst bounds what can repeat, and the common failure (a browser or an HTTP/1.1 hop
 * that cannot stream) fails before the runtime sees anything, so nothing repeats there.
 *
 * The next call opens as soon as one is acknowledged (and when the terminal attaches), before
 * anything is typed: opening one is a request of its own (a few milliseconds), and the first
 * keystroke after a pause would otherwise wait for it. Such a call that fails before it carried
 * anything is dropped quietly; the next keystroke opens one the usual way.
 */
export class StreamInputChannel implements InputChannel {
  private queued: Uint8Array[] = []
  private burst: Burst | undefined
  /** Ends the open burst after `burstIdleMs` without typing. */
  private readonly idle: IdleTimer
  private fallen: InputChannel | undefined
  private disposed = false
  private readonly open: (target: StreamInputTarget) => StreamInputCall
  private readonly maxBurstBytes: number

  constructor(private readonly options: StreamInputChannelOptions) {
    this.open = options.open ?? ((target) => openStreamInput(target))
    this.maxBurstBytes = options.maxBurstBytes ?? 64 * 1024
    this.idle = new IdleTimer(options.burstIdleMs ?? 1000, () => {
      if (this.burst) this.end(this.burst)
    })
  }

  /** Whether input now goes by SendInput (the runtime is not https, or streaming failed). */
  get usesFallback(): boolean {
    return this.fallen !== undefined
  }

  push(data: Uint8Array): void {
    if (data.length === 0 || this.disposed) return
    if (this.fallen) {
      this.fallen.push(data)
      return
    }
    this.queued.push(data)
    this.pump()
  }

  retry(): void {
    if (this.fallen) this.fallen.retry()
    else {
      this.pump()
      this.openAhead()
    }
  }

  clear(): void {
    this.queued = []
    this.dropBurst()
    this.fallen?.clear()
  }

  dispose(): void {
    this.disposed = true
    this.queued = []
    this.dropBurst()
    this.fallen?.dispose()
  }

  private pump(): void {
    if (this.disposed || this.fallen || this.queued.length === 0) return
    // The next call starts only once this one is acknowledged: two calls could interleave.
    if (this.burst?.ending) return
    if (!this.burst) {
      const target = this.options.target()
      if (!target) return
      if (!this.streams(target)) {
        this.fallBack(undefined)
        return
      }
      this.burst = this.begin(target)
    }
    const burst = this.burst
    while (this.queued.length > 0 && burst.bytes < this.maxBurstBytes) {
      const room = this.maxBurstBytes - burst.bytes
      // A whole write that does not fit waits for the next call, unless the call is still empty.
      if (this.options.wholeWrites && burst.bytes > 0 && (this.queued[0] as Uint8Array).length > room) break
      const chunk = takeBytes(this.queued, room, this.options.wholeWrites)
      burst.call.write(chunk)
      burst.written.push(chunk)
      burst.bytes += chunk.length
    }
    if (burst.bytes >= this.maxBurstBytes || this.queued.length > 0) this.end(burst)
    else this.idle.restart()
  }

  /**
   * Whether input to `target` can stream: through the local stack's tunnel in every browser and
   * over plain HTTP; otherwise only where the browser's fetch streams a request body, which
   * Chromium does over HTTP/2 alone, so TLS.
   */
  private streams(target: StreamInputTarget): boolean {
    if (target.streamFetch) return true
    const browserStreams = this.options.supportsStreams ?? supportsRequestStreams
    return new URL(target.runtimeUrl).protocol === 'https:' && browserStreams()
  }

  private begin(target: StreamInputTarget): Burst {
    const burst: Burst = { call: this.open(target), written: [], bytes: 0, ending: false }
    burst.call.result.then(
      () => this.acknowledged(burst),
      (err: unknown) => this.failed(burst, err),
    )
    return burst
  }

  private end(burst: Burst): void {
    if (burst.ending || burst !== this.burst) return
    this.idle.stop()
    burst.ending = true
    void burst.call.finish()
  }

  /** Opens the next call before it is needed, when nothing waits and none is open. */
  private openAhead(): void {
    if (this.disposed || this.fallen || this.burst || this.queued.length > 0) return
    const target = this.options.target()
    if (target && this.streams(target)) this.burst = this.begin(target)
  }

  private acknowledged(burst: Burst): void {
    if (burst !== this.burst) return
    // A call the runtime ended on its own: its idle deadline must not end the next one.
    this.idle.stop()
    this.burst = undefined
    this.pump()
    this.openAhead()
  }

  private failed(burst: Burst, err: unknown): void {
    if (burst !== this.burst || this.disposed) return
    this.idle.stop()
    this.burst = undefined
    // A call opened ahead that never carried anything: nothing to resend, nothing to judge by.
    if (burst.bytes === 0 && this.queued.length === 0) return
    // The page is going away and took the call with it: what it carried was sent, and resending
    // it from a page being unloaded would deliver a piece of it twice (the first key, say).
    if (err instanceof DOMException && err.name === 'AbortError') return
    // From the first byte not known to be delivered: all of this call's, then what waited.
    this.queued = [...burst.written, ...this.queued]
    this.fallBack(reasonOf(err))
  }

  /** Hands every queued byte, in order, to SendInput, which takes all input from now on. */
  private fallBack(reason: string | undefined): void {
    const fallen = this.options.fallback()
    this.fallen = fallen
    if (reason !== undefined) this.options.onFallback?.(reason)
    const pending = this.queued
    this.queued = []
    for (const chunk of pending) fallen.push(chunk)
  }

  private dropBurst(): void {
    this.idle.stop()
    const burst = this.burst
    this.burst = undefined
    burst?.call.abort()
  }
}
