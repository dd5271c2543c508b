/**
 * An unbounded single-consumer queue that can be closed from the producer side, with an
 * optional weight per item so producers can apply backpressure. Unlike an async generator,
 * closing it wakes a consumer that is waiting, so no stream hangs on a closed source.
 */
export class Channel<T> {
  private readonly items: T[] = []
  private waiter: ((result: IteratorResult<T>) => void) | undefined
  private failWaiter: ((err: unknown) => void) | undefined
  private closed = false
  private error: unknown
  /** Sum of the weights of queued items. */
  weight = 0

  /**
   * `weigh` gives each item's weight (1 by default); `onTake` runs after the consumer takes
   * an item, so a producer that paused for a heavy queue learns when to go on.
   */
  constructor(
    private readonly weigh: (item: T) => number = () => 1,
    private readonly onTake?: () => void,
  ) {}

  /** Queues an item; false when the channel is closed and the item was dropped. */
  push(item: T): boolean {
    if (this.closed) return false
    const waiter = this.waiter
    if (waiter) {
      this.waiter = this.failWaiter = undefined
      waiter({ value: item, done: false })
    } else {
      this.items.push(item)
      this.weight += this.weigh(item)
    }
    return true
  }

  /** Ends the channel; queued items are still delivered, then `done` (or the error). */
  close(error?: unknown): void {
    if (this.closed) return
    this.closed = true
    this.error = error
    if (this.items.length === 0) this.wake()
  }

  get isClosed(): boolean {
    return this.closed
  }

  /** The next item, waiting for one if needed. */
  next(): Promise<IteratorResult<T>> {
    if (this.items.length > 0) {
      const item = this.items.shift() as T
      this.weight -= this.weigh(item)
      this.onTake?.()
      return Promise.resolve({ value: item, done: false })
    }
    if (this.closed) {
      return this.error === undefined
        ? Promise.resolve({ value: undefined, done: true })
        : Promise.reject(this.error)
    }
    return new Promise((resolve, reject) => {
      this.waiter = resolve
      this.failWaiter = reject
    })
  }

  private wake(): void {
    const waiter = this.waiter
    const fail = this.failWaiter
    this.waiter = this.failWaiter = undefined
    if (this.error === undefined) waiter?.({ value: undefined, done: true })
    else fail?.(this.error)
  }
}
