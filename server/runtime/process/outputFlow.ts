/**
 * A client that acknowledges output (ours) takes events of up to a quarter of its window, and at
 * most this: a flood then crosses every hop (the socket, the router, the browser's network
 * stack, the page) in a few large messages instead of many small ones, and each message costs
 * every hop about the same. A quarter keeps what may overshoot the window small beside it.
 */
const ackedEventBytes = 256 * 1024
/** A subscriber with more than this queued pauses the process's output... */
const pauseAboveBytes = 256 * 1024
/** ...until every subscriber is back below this. */
const resumeBelowBytes = 64 * 1024
/** A subscriber that took nothing for this long while behind is cut loose, so others go on. */
export const stalledAfterMs = 5_000
/** How often a paused process looks for stalled subscribers; a stall is judged to about this. */
const stallCheckEveryMs = 1000

/** The largest data event a subscriber is sent: the output's chunk, or more for a client with a window. */
export function eventBytesFor(window: number | undefined, chunkBytes: number): number {
  return window === undefined ? chunkBytes : Math.max(chunkBytes, Math.min(ackedEventBytes, window / 4))
}

/** One subscriber's standing in the flow; `OutputFlow` keeps it up to date. */
export interface FlowSubscriber {
  /**
   * Acknowledged output (our extension): the client acknowledges output it has handled, and the
   * process pauses while more than `window` bytes sent to it are unacknowledged. Without a window,
   * what waits in the queue decides, which cannot see the bytes in sockets and the browser.
   * The client may change it with any acknowledgement (`resize`), as it learns its link.
   */
  window: number | undefined
  /** Absolute offset just past the last byte queued for it. */
  sent: number
  /** Absolute offset up to which it acknowledged output. */
  acked: number
  /** When it last took an event (no window) or acknowledged output (window). */
  lastProgress: number
  /** Bytes waiting in its queue (what counts without a window). */
  readonly queued: () => number
  /** Called once it is cut loose for stalling, after it left the flow. */
  readonly onStalled: () => void
}

export interface NewSubscriber {
  window: number | undefined
  /** Absolute offset where output sent to it starts. */
  sentFrom: number
  /** Absolute offset its acknowledgements start from (earlier than `sentFrom` after a replay). */
  ackedFrom: number
  queued: () => number
  onStalled: () => void
}

/** What the flow holds back: the process's output. */
export interface Valve {
  pause(): void
  resume(): void
}

/** Runs `check` every `ms` until the returned function is called. */
export type Repeat = (ms: number, check: () => void) => () => void

const repeatEvery: Repeat = (ms, check) => {
  const timer = setInterval(check, ms)
  return () => clearInterval(timer)
}

/**
 * Flow control of one process's output: pauses the process while any subscriber lags, resumes
 * it once all caught up, and, while paused, cuts loose a subscriber that stopped taking output,
 * so memory stays bounded however slow a client is and one stuck client holds no other back.
 */
export class OutputFlow {
  private readonly subscribers = new Set<FlowSubscriber>()
  private paused = false
  private ended = false
  private stopStallWatch: (() => void) | undefined

  constructor(
    private readonly valve: Valve,
    private readonly now: () => number = Date.now,
    private readonly repeat: Repeat = repeatEvery,
  ) {}

  get isPaused(): boolean {
    return this.paused
  }

  /** A new subscriber; once the process ended it is not tracked, as nothing is held back any more. */
  add({ window, sentFrom, ackedFrom, queued, onStalled }: NewSubscriber): FlowSubscriber {
    const sub = { window, sent: sentFrom, acked: ackedFrom, lastProgress: this.now(), queued, onStalled }
    if (!this.ended) this.subscribers.add(sub)
    return sub
  }

  /** The subscriber left. */
  remove(sub: FlowSubscriber): void {
    this.subscribers.delete(sub)
    this.resumeIfCaughtUp()
  }

  /** Output up to `end` was queued for every subscriber. */
  sentUpTo(end: number): void {
    for (const sub of this.subscribers) sub.sent = end
    if (!this.paused && [...this.subscribers].some(isBehind)) this.pause()
  }

  /** The subscriber took an event from its queue. */
  took(sub: FlowSubscriber): void {
    if (sub.window === undefined) sub.lastProgress = this.now()
    this.resumeIfCaughtUp()
  }

  /** The subscriber acknowledged output before `offset` (only one with a window does). */
  acknowledged(sub: FlowSubscriber, offset: number): void {
    if (sub.window === undefined || offset <= sub.acked) return
    sub.acked = Math.min(offset, sub.sent)
    sub.lastProgress = this.now()
    this.resumeIfCaughtUp()
  }

  /**
   * The subscriber asked for a new window (only one that has a window may): a smaller one holds
   * the output back at once, a larger one may let it go on.
   */
  resize(sub: FlowSubscriber, window: number): void {
    if (sub.window === undefined) return
    sub.window = window
    if (!this.paused && isBehind(sub)) this.pause()
    else this.resumeIfCaughtUp()
  }

  /** The most output sent to one subscriber with a window and not acknowledged yet. */
  mostUnacknowledged(): number {
    let most = 0
    for (const sub of this.subscribers) {
      if (sub.window !== undefined) most = Math.max(most, sub.sent - sub.acked)
    }
    return most
  }

  /**
   * Output before `offset` was flushed by an interrupt: subscribers with a window skip it unshown,
   * so it counts as acknowledged. Waiting for them to acknowledge it would only hold back what
   * comes after the interrupt (the prompt).
   */
  flushedTo(offset: number): void {
    for (const sub of this.subscribers) {
      if (sub.window !== undefined && sub.acked < offset) sub.acked = Math.min(offset, sub.sent)
    }
    this.resumeIfCaughtUp()
  }

  /** The process ended: forgets every subscriber and stops watching for stalls. */
  end(): void {
    this.ended = true
    this.stopStallWatch?.()
    this.subscribers.clear()
  }

  private resumeIfCaughtUp(): void {
    if (this.paused && [...this.subscribers].every(caughtUp)) this.resume()
  }

  private pause(): void {
    this.paused = true
    this.valve.pause()
    this.stopStallWatch = this.repeat(stallCheckEveryMs, () => this.cutLooseStalled())
  }

  private resume(): void {
    this.paused = false
    this.stopStallWatch?.()
    this.stopStallWatch = undefined
    this.valve.resume()
  }

  private cutLooseStalled(): void {
    const now = this.now()
    for (const sub of this.subscribers) {
      if (isBehind(sub) && now - sub.lastProgress > stalledAfterMs) {
        this.subscribers.delete(sub)
        sub.onStalled()
      }
    }
    this.resumeIfCaughtUp()
  }
}

/** Output sent to a subscriber and not yet taken (no window) or acknowledged (window). */
const backlog = (sub: FlowSubscriber) => (sub.window === undefined ? sub.queued() : sub.sent - sub.acked)

/** Holds the process back. */
const isBehind = (sub: FlowSubscriber) => backlog(sub) > (sub.window ?? pauseAboveBytes)

/**
 * Lets it go on. With a window, as soon as less than the window is unacknowledged: the client
 * acknowledges in small steps, so the window stays full and the output keeps flowing.
 */
const caughtUp = (sub: FlowSubscriber) => backlog(sub) < (sub.window ?? resumeBelowBytes)
