/** Bytes handed to the terminal but not yet parsed, above which reading the stream stops... */
export const pauseAboveBytes = 256 * 1024
/** ...and below which it goes on. */
export const resumeBelowBytes = 64 * 1024

/**
 * Output on its way into a terminal emulator: chunks that arrive within one frame are written as
 * one, and the bytes written but not yet parsed are counted through the emulator's write
 * callbacks. `room()` waits while too much is pending, so whoever reads the stream stops reading
 * and the backpressure reaches the sandbox: a flood stays bounded and Ctrl-C takes effect at once.
 */
export class FrameWriter {
  private queued: Uint8Array[] = []
  private queuedBytes = 0
  /** Callbacks of the queued chunks, called once the write that carries them is parsed. */
  private queuedCallbacks: (() => void)[] = []
  private pendingBytes = 0
  private scheduled = false
  private waiters: (() => void)[] = []
  private disposed = false

  constructor(
    /** Writes bytes into the emulator and calls `parsed` once it has processed them. */
    private readonly write: (data: Uint8Array, parsed: () => void) => void,
    /** Runs a callback at the next frame (requestAnimationFrame in a page). */
    private readonly nextFrame: (callback: () => void) => void,
  ) {}

  /**
   * Hands output to the emulator: at once when it is idle (a keystroke's echo must not wait for
   * a frame), otherwise gathered into one write at the next frame. `parsed` runs once the
   * emulator has processed these bytes.
   */
  push(data: Uint8Array, parsed?: () => void): void {
    if (this.disposed || data.length === 0) return
    this.queued.push(data)
    this.queuedBytes += data.length
    if (parsed) this.queuedCallbacks.push(parsed)
    if (this.pendingBytes === 0 && !this.scheduled) {
      this.flush()
      return
    }
    if (!this.scheduled) {
      this.scheduled = true
      this.nextFrame(() => this.flush())
    }
  }

  /** Bytes queued or written but not yet parsed. */
  get backlog(): number {
    return this.queuedBytes + this.pendingBytes
  }

  /** Resolves once the backlog is low enough to read more output. */
  room(): Promise<void> {
    if (this.backlog < pauseAboveBytes || this.disposed) return Promise.resolve()
    return new Promise((resolve) => this.waiters.push(resolve))
  }

  dispose(): void {
    this.disposed = true
    this.queued = []
    this.queuedCallbacks = []
    for (const w of this.waiters.splice(0)) w()
  }

  private flush(): void {
    this.scheduled = false
    if (this.disposed || this.queued.length === 0) return
    const data =
      this.queued.length === 1 ? (this.queued[0] as Uint8Array) : concat(this.queued, this.queuedBytes)
    const callbacks = this.queuedCallbacks
    this.queued = []
    this.queuedBytes = 0
    this.queuedCallbacks = []
    this.pendingBytes += data.length
    this.write(data, () => {
      this.pendingBytes -= data.length
      for (const parsed of callbacks) parsed()
      if (this.backlog < resumeBelowBytes) for (const w of this.waiters.splice(0)) w()
    })
  }
}

function concat(parts: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total)
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}
