// A terminal's round trip as its user feels it: from a key sent to the first output after it
// (the shell's echo). Measured on keys typed one at a time, so a burst or a paste, whose output
// answers many keys at once, does not count; a key with no answer within a second (a password
// prompt, a busy program) is dropped rather than taken as a slow network.

/** How many recent echoes the median is taken over. */
const kept = 9
/** Longer than this is no echo of that key. */
const answerWithinMs = 1000
/**
 * A key sent less than this after the last output came while output was flowing (a flood, a
 * build's log): the next output was on its way already, and says nothing of the key's round trip.
 */
const outputQuietMs = 30

/** One key that may be echoed: a printable character or backspace, not a paste or an escape. */
export function isSingleKey(data: string): boolean {
  if (data === '\x7f') return true
  return [...data].length === 1 && data >= ' '
}

export class EchoTimer {
  /** When the key being timed was sent. */
  private pendingSince: number | undefined
  /** When input was last sent that no output has followed yet. */
  private unansweredSince: number | undefined
  private lastOutputAt = Number.NEGATIVE_INFINITY
  private readonly samples: number[] = []
  private medianMs: number | undefined

  constructor(
    /** Told when the median (in whole ms) changes. */
    private readonly changed: (medianMs: number) => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The median of the recent echoes, in ms, or undefined before the first. */
  get median(): number | undefined {
    return this.medianMs
  }

  /** Input went to the sandbox. */
  sent(data: string): void {
    const now = this.now()
    const waiting = this.unansweredSince !== undefined && now - this.unansweredSince < answerWithinMs
    // A key sent while earlier input is unanswered: whose echo comes next cannot be told. Time
    // none until the output catches up.
    const flowing = now - this.lastOutputAt < outputQuietMs
    this.pendingSince = !waiting && !flowing && isSingleKey(data) ? now : undefined
    this.unansweredSince = now
  }

  /** Output came from the sandbox. */
  received(): void {
    const now = this.now()
    this.unansweredSince = undefined
    this.lastOutputAt = now
    if (this.pendingSince === undefined) return
    const ms = now - this.pendingSince
    this.pendingSince = undefined
    if (ms > answerWithinMs) return
    this.samples.push(ms)
    if (this.samples.length > kept) this.samples.shift()
    const sorted = [...this.samples].sort((a, b) => a - b)
    const median = Math.round(sorted[Math.floor(sorted.length / 2)] as number)
    if (median !== this.medianMs) {
      this.medianMs = median
      this.changed(median)
    }
  }
}
