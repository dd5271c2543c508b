import type { OutputKind } from './outputLog'

/** Output arriving within this long of other output is gathered... */
const busyWithinMs = 5
/** ...for this long at first, twice as long for each gather that follows at once, up to the most. */
const firstGatherMs = 2
const mostGatherMs = 8

/** Runs `fire` after `ms`, unless the returned function is called first. */
export type Later = (ms: number, fire: () => void) => () => void

const timeout: Later = (ms, fire) => {
  const timer = setTimeout(fire, ms)
  return () => clearTimeout(timer)
}

export interface CoalescerOptions {
  /** Takes output on, gathered or as it came. */
  publish(kind: OutputKind, data: Uint8Array): void
  /** Gathered output goes on once it has this many bytes (the largest event a subscriber takes). */
  gatherBytes(): number
  now?: () => number
  later?: Later
}

/**
 * A terminal hands its output over in reads of at most 4 KiB, one per wake-up. Publishing each
 * as its own event would pay the per-event cost (encoding, envelope, write) before the next
 * read and hold the process back. So output that follows other output within a moment is
 * gathered for up to 2 ms, or until the largest event a subscriber takes is full; a lone read,
 * such as a keystroke's echo, goes out at once, and so does the one right after it: a message
 * written in two parts (a language server's header, then its body) would otherwise wait out a
 * gather on every answer. Output is a flood from its third read on. Order across stdout and
 * stderr is kept.
 * A flood gathers for longer (up to 8 ms, half a frame): its events, each costing every hop
 * about the same, come half as often, and the runtime spent a third less CPU on a 32 MiB flood
 * (measured on the runtime alone; `npm run bench -- terminal` shows the flood against wetty).
 */
export class OutputCoalescer {
  /** Output read in this turn of the event loop, not yet published. */
  private pending: { kind: OutputKind; parts: Uint8Array[]; bytes: number } | undefined
  private cancelFlush: (() => void) | undefined
  private lastOutputAt = Number.NEGATIVE_INFINITY
  /** Reads since output last began after a pause. */
  private readsInRun = 0
  /** How long the next gather lasts: longer while output keeps coming. */
  private gatherMs = firstGatherMs
  private readonly publish: CoalescerOptions['publish']
  private readonly gatherBytes: CoalescerOptions['gatherBytes']
  private readonly now: () => number
  private readonly later: Later

  constructor({ publish, gatherBytes, now = () => performance.now(), later = timeout }: CoalescerOptions) {
    this.publish = publish
    this.gatherBytes = gatherBytes
    this.now = now
    this.later = later
  }

  /** Output just read. */
  collect(kind: OutputKind, data: Uint8Array): void {
    if (this.pending && this.pending.kind !== kind) this.flush()
    const now = this.now()
    const busy = now - this.lastOutputAt < busyWithinMs
    this.lastOutputAt = now
    this.readsInRun = busy ? this.readsInRun + 1 : 1
    if (!this.pending) {
      if (!busy) this.gatherMs = firstGatherMs
      if (this.readsInRun <= 2) {
        this.publish(kind, data)
        return
      }
      this.pending = { kind, parts: [], bytes: 0 }
      this.cancelFlush = this.later(this.gatherMs, () => this.flush())
      this.gatherMs = Math.min(mostGatherMs, this.gatherMs * 2)
    }
    this.pending.parts.push(data)
    this.pending.bytes += data.length
    if (this.pending.bytes >= this.gatherBytes()) this.flush()
  }

  /** Publishes what is being gathered, at once. */
  flush(): void {
    const pending = this.pending
    if (!pending) return
    this.pending = undefined
    this.cancelFlush?.()
    this.cancelFlush = undefined
    this.publish(
      pending.kind,
      pending.parts.length === 1 ? (pending.parts[0] as Uint8Array) : Buffer.concat(pending.parts),
    )
  }
}
