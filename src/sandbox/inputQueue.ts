import type { InputChannel } from './inputChannel'
import { takeBytes } from './takeBytes'

/**
 * Keystrokes for one process, sent by unary calls (SendInput works in every browser and over
 * HTTP/1.1): one call in flight at a time, and whatever was typed meanwhile joined into the next
 * call, so input is never reordered and a fast typist costs few requests. A failed call keeps
 * its bytes at the front of the queue for `retry`; nothing typed is ever dropped silently.
 */
export class InputQueue implements InputChannel {
  private pending: Uint8Array[] = []
  private inFlight = false
  private failed = false
  private disposed = false

  constructor(
    private readonly send: (data: Uint8Array) => Promise<void>,
    private readonly onError: (err: unknown) => void,
    /** Largest single call; a big paste goes out in pieces of this size, in order. */
    private readonly maxChunkBytes = 64 * 1024,
    /** Never cut a write in two calls (see takeBytes). */
    private readonly wholeWrites = false,
  ) {}

  /** Queues input and sends it as soon as the previous call is done. */
  push(data: Uint8Array): void {
    if (data.length === 0) return
    this.pending.push(data)
    void this.pump()
  }

  /** Bytes typed but not yet accepted by the runtime. */
  get queuedBytes(): number {
    return this.pending.reduce((sum, d) => sum + d.length, 0)
  }

  /** After a failure, tries the queued input again (for example once the sandbox is back). */
  retry(): void {
    this.failed = false
    void this.pump()
  }

  /** Forgets queued input (the process is gone). */
  clear(): void {
    this.pending = []
  }

  /** Forgets queued input and sends nothing more. */
  dispose(): void {
    this.disposed = true
    this.pending = []
  }

  private async pump(): Promise<void> {
    if (this.inFlight || this.failed || this.disposed) return
    this.inFlight = true
    try {
      while (this.pending.length > 0 && !this.failed) {
        const chunk = takeBytes(this.pending, this.maxChunkBytes, this.wholeWrites)
        try {
          await this.send(chunk)
        } catch (err) {
          this.pending.unshift(chunk)
          this.failed = true
          this.onError(err)
        }
      }
    } finally {
      this.inFlight = false
    }
  }
}
