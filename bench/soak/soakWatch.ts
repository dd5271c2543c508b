// One student's explorer: a recursive WatchDir on their home held open all day, as the IDE's file
// watch is. A save must show up in it; after a pause (which ends every call in flight) it is opened
// again, as the IDE's watch reconnects.
import type { StudentRuntime } from './studentRuntime'

/** Events kept to answer "did this save show?": the last half minute is plenty. */
const keptMs = 30_000

export class SoakWatch {
  private seen: { name: string; at: number }[] = []
  private waiting: (() => void)[] = []
  private abort = new AbortController()
  /** Filesystem events received, all day. */
  events = 0

  constructor(
    private readonly rt: StudentRuntime,
    private readonly path: string,
  ) {}

  /** Opens the watch and waits for its start event (from then on no change is missed). */
  async open(): Promise<void> {
    this.abort.abort()
    this.abort = new AbortController()
    const signal = this.abort.signal
    const stream = this.rt.fs
      .watchDir({ path: this.path, recursive: true }, { signal })
      [Symbol.asyncIterator]()
    const first = await stream.next()
    if (first.done || first.value.event.case !== 'start')
      throw new Error(`WatchDir began with ${first.done ? 'its end' : first.value.event.case}, not its start`)
    void (async () => {
      try {
        for (let next = await stream.next(); !next.done; next = await stream.next()) {
          const { event } = next.value
          if (event.case !== 'filesystem') continue
          const at = performance.now()
          this.events++
          this.seen.push({ name: event.value.name, at })
          while ((this.seen[0]?.at ?? at) < at - keptMs) this.seen.shift()
          for (const resolve of this.waiting.splice(0)) resolve()
        }
      } catch {
        // Closed, or cut by a pause: the owner opens it again.
      }
    })()
  }

  /** Whether an event for `name` (relative to the watched folder) came after `since`, waiting up to `ms`. */
  async sawSince(name: string, since: number, ms: number): Promise<boolean> {
    const deadline = performance.now() + ms
    for (;;) {
      if (this.seen.some((e) => e.name === name && e.at >= since)) return true
      const left = deadline - performance.now()
      if (left <= 0) return false
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left)
        this.waiting.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
  }

  close(): void {
    this.abort.abort()
  }
}
