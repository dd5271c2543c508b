/** Bytes handed to the terminal but not yet parsed, above which reading the stream stops... */
export const pauseAboveBytes = 256 * 1024
/** ...and below which it goes on. */
export const resumeBelowBytes = 64 * 1024
/** While less than this is unparsed, output is written at once; above, it is gathered. */
export const writeAheadBytes = 64 * 1024
/**
 * The most one write hands the emulator. xterm parses a write whole before it yields to the
 * page, so a larger one (a gathered backlog, a 256 KiB event) would be a long task that keeps
 * keystrokes, Ctrl-C among them, waiting; it is split instead.
 */
export const maxWriteBytes = 64 * 1024

/** Output waiting to be written, with where it ends in the process's output when known. */
interface Chunk {
  data: Uint8Array
  end: number | undefined
  parsed: (() => void) | undefined
}

/**
 * Output on its way into a terminal emulator. Written at once while the emulator has little to
 * parse (a keystroke's echo waits for nothing), otherwise gathered and handed over, up to
 * `maxWriteBytes` at a time, as soon as the emulator is through most of what it has: the emulator
 * is never idle while output waits, and never holds a large backlog of unparsed writes. The
 * bytes written but not yet parsed are counted through the emulator's write callbacks, and
 * `room()` waits while too much is pending, so whoever reads the stream stops reading and the
 * backpressure reaches the sandbox.
 *
 * Nothing here waits for an animation frame: frames come slowly while a flood is being drawn (or
 * never, in a hidden tab), and output written only at frames would be parsed only at their pace.
 */
export class OutputWriter {
  private queued: Chunk[] = []
  private queuedBytes = 0
  private pendingBytes = 0
  private waiters: (() => void)[] = []
  private disposed = false

  constructor(
    /** Writes bytes into the emulator and calls `parsed` once it has processed them. */
    private readonly write: (data: Uint8Array, parsed: () => void) => void,
  ) {}

  /**
   * Hands output to the emulator. `end` is where it ends in the process's output (absolute), for
   * `skipBefore`; `parsed` runs once the emulator has processed it (or it was skipped).
   */
  push(data: Uint8Array, end?: number, parsed?: () => void): void {
    if (this.disposed || data.length === 0) return
    this.queued.push({ data, end, parsed })
    this.queuedBytes += data.length
    if (this.pendingBytes < writeAheadBytes) this.flush()
  }

  /**
   * Drops the output still waiting here that comes before absolute offset `offset`, as a terminal
   * drops its output queue on an interrupt; what the emulator already has is parsed anyway.
   */
  skipBefore(offset: number): void {
    const kept: Chunk[] = []
    for (const chunk of this.queued) {
      const start = chunk.end === undefined ? undefined : chunk.end - chunk.data.length
      if (chunk.end === undefined || start === undefined || start >= offset) kept.push(chunk)
      else if (chunk.end <= offset) chunk.parsed?.()
      else kept.push({ ...chunk, data: chunk.data.subarray(offset - start) })
    }
    this.queued = kept
    this.queuedBytes = kept.reduce((sum, chunk) => sum + chunk.data.length, 0)
    this.release()
  }

  /** Bytes queued or written but not yet parsed. */
  get backlog(): number {
    return this.queuedBytes + this.pendingBytes
  }

  /** Whether everything pushed has been parsed. */
  idle = (): boolean => this.backlog === 0

  /** Resolves once the backlog is low enough to read more output. */
  room(): Promise<void> {
    if (this.backlog < pauseAboveBytes || this.disposed) return Promise.resolve()
    return new Promise((resolve) => this.waiters.push(resolve))
  }

  dispose(): void {
    this.disposed = true
    this.queued = []
    for (const w of this.waiters.splice(0)) w()
  }

  /**
   * Writes the next `maxWriteBytes` of the queue, a piece at a time: xterm takes a write per
   * piece as cheaply as one, and joining them would copy every byte once more.
   */
  private flush(): void {
    if (this.disposed || this.queued.length === 0) return
    for (const chunk of this.take(maxWriteBytes)) {
      const bytes = chunk.data.length
      this.pendingBytes += bytes
      this.write(chunk.data, () => {
        this.pendingBytes -= bytes
        chunk.parsed?.()
        if (this.pendingBytes < writeAheadBytes) this.flush()
        this.release()
      })
    }
  }

  /** The first `limit` bytes of the queue, the chunk it cuts split (its callback stays with its end). */
  private take(limit: number): Chunk[] {
    const taken: Chunk[] = []
    let bytes = 0
    while (this.queued.length > 0 && bytes < limit) {
      const chunk = this.queued[0] as Chunk
      const room = limit - bytes
      if (chunk.data.length <= room) {
        taken.push(chunk)
        this.queued.shift()
        bytes += chunk.data.length
      } else {
        const end = chunk.end === undefined ? undefined : chunk.end - chunk.data.length + room
        taken.push({ data: chunk.data.subarray(0, room), end, parsed: undefined })
        this.queued[0] = { ...chunk, data: chunk.data.subarray(room) }
        bytes = limit
      }
    }
    this.queuedBytes -= bytes
    return taken
  }

  private release(): void {
    if (this.backlog < resumeBelowBytes) for (const w of this.waiters.splice(0)) w()
  }
}
