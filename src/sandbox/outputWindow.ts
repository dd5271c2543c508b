import { maxOutputWindowBytes } from '../contract/runtimeExtensions'

/** The window a terminal asks for before it has measured anything. */
export const firstWindowBytes = 1024 * 1024
/** At least this much, so a slow start or a slow link still gets its output in few acknowledgements. */
export const minWindowBytes = 256 * 1024
/** At most this much: the runtime grants no more. */
export const maxWindowBytes = maxOutputWindowBytes
/**
 * What may be in flight is about this long of the output's measured rate. The rate is at most
 * the link's, so after a Ctrl-C the bytes already on their way are through in about this long,
 * on any link; and the window stays larger than a round trip's worth, so it never throttles.
 */
export const drainMs = 500
/**
 * A rate is measured over at least this long. Output that waited in the page while it was busy
 * (loading, rendering) is parsed in a burst that inflates one measurement, by up to a window over
 * this time; so the window follows the lower of the last two, and changes only once there are two.
 */
export const measureMs = 400
/** No output parsed for this long is a pause of the program, not the link: measuring starts over. */
export const idleMs = 1000

/** What decides the output window a terminal asks for, from what it sees of its output. */
export interface OutputWindowPolicy {
  /** The window to ask for now. */
  readonly wanted: number
  /** A new stream: what came before says nothing about its offsets, or its link. */
  restart(): void
  /** The output before absolute offset `offset` has been parsed (or skipped after a Ctrl-C). */
  progress(offset: number): void
  /** A message took `ms` there and back on this link: a stream's opening, or an acknowledgement. */
  roundTrip(ms: number): void
}

/**
 * How large a terminal's output window should be, from how fast its output is parsed: as large as
 * about `drainMs` of that rate (as TCP sizes its window by bandwidth and delay). On one machine a
 * flood is parsed at 15–25 MB/s, and a window of many MiB keeps the sandbox side from waiting for
 * acknowledgements; at 10 Mbit/s the same window would take seconds to cross after a Ctrl-C,
 * where this one takes half a second.
 */
export class OutputWindow implements OutputWindowPolicy {
  private wantedBytes = firstWindowBytes
  /** Where the current measurement began. */
  private from: { at: number; offset: number } | undefined
  /** The rate the last measurement found (bytes per ms), in this run of output. */
  private lastRate: number | undefined
  private lastProgressAt = Number.NEGATIVE_INFINITY
  /**
   * The shortest round trip on this stream, ms: about the link's own delay. Not an average: an
   * acknowledgement's answer waits behind the output in flight, and a window sized by that wait
   * would grow the wait it measures (bufferbloat). A flood's acknowledgements all wait so, from
   * the first; the stream's opening, before any output, does not.
   */
  private roundTripMs = Number.POSITIVE_INFINITY

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** The window to ask for now. */
  get wanted(): number {
    return this.wantedBytes
  }

  /**
   * A new stream starts measuring afresh: its offsets may skip output lost while disconnected,
   * which no link carried, and it may come over another link.
   */
  restart(): void {
    this.from = undefined
    this.lastRate = undefined
    this.roundTripMs = Number.POSITIVE_INFINITY
  }

  /** The output before absolute offset `offset` has been parsed (or skipped after a Ctrl-C). */
  progress(offset: number): void {
    const now = this.now()
    if (this.from === undefined || now - this.lastProgressAt > idleMs) {
      this.from = { at: now, offset }
      this.lastRate = undefined
    } else if (now - this.from.at >= measureMs) {
      const bytesPerMs = (offset - this.from.offset) / (now - this.from.at)
      if (this.lastRate !== undefined) {
        // A window of less than two round trips would hold the output back by itself.
        const horizonMs = Number.isFinite(this.roundTripMs)
          ? Math.max(drainMs, 2 * this.roundTripMs)
          : drainMs
        const rate = Math.min(bytesPerMs, this.lastRate)
        this.wantedBytes = Math.round(Math.min(maxWindowBytes, Math.max(minWindowBytes, rate * horizonMs)))
      }
      this.lastRate = bytesPerMs
      this.from = { at: now, offset }
    }
    this.lastProgressAt = now
  }

  /** A message took `ms` there and back on this link. */
  roundTrip(ms: number): void {
    this.roundTripMs = Math.min(this.roundTripMs, ms)
  }
}
