/** How long a failed acknowledgement waits before it is tried again. */
const retryMs = 1000

/**
 * The client side of acknowledged output: learns the offsets the terminal has parsed and tells
 * the runtime, a quarter of the window at a time (the runtime lets output flow again once half
 * of it is acknowledged), one call in flight, the newest offset each time.
 */
export class OutputAcks {
  private parsedTo: number
  private acked: number
  private inFlight = false
  private retry: ReturnType<typeof setTimeout> | undefined
  private disposed = false

  constructor(
    /** One acknowledgement call. */
    private readonly send: (offset: number) => Promise<void>,
    private readonly window: number,
    /** The offset the stream started at: nothing before it needs acknowledging. */
    start: number,
    private readonly onError: (err: unknown) => void,
  ) {
    this.parsedTo = start
    this.acked = start
  }

  /** The terminal has parsed the output before `offset`. */
  parsed(offset: number): void {
    if (offset > this.parsedTo) this.parsedTo = offset
    void this.pump()
  }

  dispose(): void {
    this.disposed = true
    clearTimeout(this.retry)
  }

  private async pump(): Promise<void> {
    while (!this.inFlight && !this.disposed && this.parsedTo - this.acked >= this.window / 4) {
      this.inFlight = true
      const offset = this.parsedTo
      try {
        await this.send(offset)
        this.acked = offset
      } catch (err) {
        // The runtime cuts a stream that acknowledges nothing for a while, and it reconnects.
        if (!this.disposed) {
          this.onError(err)
          this.retry = setTimeout(() => void this.pump(), retryMs)
        }
        return
      } finally {
        this.inFlight = false
      }
    }
  }
}
