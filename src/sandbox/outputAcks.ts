import type { AckAnswer } from '../api/outputAck'
import type { OutputWindowPolicy } from './outputWindow'

/** Acknowledgements in flight at once: one may wait for a busy page while the next goes out. */
const maxInFlight = 2
/**
 * Acknowledgements per window. Each is a fetch, about a millisecond of the page's main thread
 * during a flood: quarters of 4 MiB instead of eighths of 2 MiB took a 32 MiB flood from about
 * 14 to 17–18 MB/s (`npm run bench -- terminal`).
 */
const acksPerWindow = 4
/**
 * For a moment after a Ctrl-C, steps are at most this large: the answer to an acknowledgement says
 * where the interrupt flushed the output, and the page skips what of it is not shown yet from then
 * on. 256 KiB is some 11 ms of a flood's parsing to wait for that news (a quarter of 4 MiB, 50).
 */
const hurriedStepBytes = 256 * 1024
const hurryForMs = 500
/** How long a failed acknowledgement waits before it is tried again. */
const retryMs = 1000

/**
 * The client side of acknowledged output: learns the offsets the terminal has parsed and tells
 * the runtime, a quarter of the window at a time, the newest offset each time. The runtime sends
 * while less than the window is unacknowledged, so steps smaller than the window keep output
 * flowing; acknowledgements are cumulative, so two in flight may arrive in any order. The window
 * follows the link: an acknowledgement asks for the one `OutputWindow` wants when it differs from
 * the one granted, and no other that asks is in flight.
 */
export class OutputAcks {
  private parsedTo: number
  /** The newest offset sent (or being sent). */
  private sentTo: number
  /** The newest offset the runtime confirmed. */
  private confirmed: number
  private inFlight = 0
  private retry: ReturnType<typeof setTimeout> | undefined
  private disposed = false
  /**
   * Whether an acknowledgement that asks for a window is in flight: one at a time, so the runtime
   * takes them in the order they were asked and the window granted last is the one in force.
   */
  private asking = false
  /** Until when acknowledgements go in smaller steps (see `hurry`). */
  private hurriedUntil = Number.NEGATIVE_INFINITY

  constructor(
    /** One acknowledgement call, with a new window to ask for, if any. */
    private readonly send: (offset: number, window: number | undefined) => Promise<AckAnswer>,
    /** The window granted when the stream opened. */
    private window: number,
    /** What the window should be, from the rate output is parsed at. */
    private readonly estimate: OutputWindowPolicy,
    /** The offset the stream started at: nothing before it needs acknowledging. */
    start: number,
    private readonly onError: (err: unknown) => void,
    /** The output before this offset was flushed by a Ctrl-C: skip what is not shown yet. */
    private readonly onFlush: (offset: number) => void = () => {},
    private readonly now: () => number = () => performance.now(),
  ) {
    this.parsedTo = start
    this.sentTo = start
    this.confirmed = start
    estimate.restart()
  }

  /** The terminal has parsed the output before `offset`. */
  parsed(offset: number): void {
    if (offset > this.parsedTo) this.parsedTo = offset
    this.estimate.progress(this.parsedTo)
    this.pump()
  }

  /** A Ctrl-C went out: for a moment, acknowledge in smaller steps, so an answer soon says where it flushed. */
  hurry(): void {
    this.hurriedUntil = this.now() + hurryForMs
    this.pump()
  }

  dispose(): void {
    this.disposed = true
    clearTimeout(this.retry)
  }

  private step(): number {
    const step = this.window / acksPerWindow
    return this.now() < this.hurriedUntil ? Math.min(step, hurriedStepBytes) : step
  }

  private pump(): void {
    while (
      this.inFlight < maxInFlight &&
      !this.disposed &&
      this.retry === undefined &&
      this.parsedTo - this.sentTo >= this.step()
    ) {
      const offset = this.parsedTo
      const wanted = this.estimate.wanted
      const ask = this.asking || wanted === this.window ? undefined : wanted
      const sentAt = this.now()
      this.sentTo = offset
      this.inFlight++
      if (ask !== undefined) this.asking = true
      const settled = () => {
        this.inFlight--
        if (ask !== undefined) this.asking = false
      }
      this.send(offset, ask).then(
        ({ flushedTo, window }) => {
          settled()
          this.estimate.roundTrip(this.now() - sentAt)
          // A window that is not a number of bytes would stop the acknowledgements: kept as it was.
          if (window !== undefined && window > 0) this.window = window
          if (flushedTo !== undefined && !this.disposed) this.onFlush(flushedTo)
          this.confirmed = Math.max(this.confirmed, offset)
          this.pump()
        },
        (err) => {
          settled()
          if (this.disposed || this.retry !== undefined) return
          // Sent again later; the runtime cuts a stream that acknowledges nothing for a while.
          this.onError(err)
          this.sentTo = this.confirmed
          this.retry = setTimeout(() => {
            this.retry = undefined
            this.pump()
          }, retryMs)
        },
      )
    }
  }
}
