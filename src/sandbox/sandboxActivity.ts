import { Subscribers } from '../common/Subscribers'

/** Followers hear of activity at most this often: a flood of output tells them once a second. */
const tellEveryMs = 1000
/** Typing has paused once no key went for this long: longer than most gaps between keys of a word. */
export const typingPauseMs = 250
/** Background work waits for a pause in typing at most this long. */
export const yieldToTypingMs = 2000

/**
 * When the page last saw the sandbox at work: a keystroke to one of its terminals, or output from
 * one. Whoever polls the sandbox can look often while it is busy and seldom while it is quiet, and
 * is told when it wakes up.
 */
export class SandboxActivity {
  private lastAt = Number.NEGATIVE_INFINITY
  private lastKeyAt = Number.NEGATIVE_INFINITY
  /** Wakes those waiting for a pause in typing, at an Enter. */
  private readonly waiting = new Set<() => void>()
  private toldAt = Number.NEGATIVE_INFINITY
  private readonly subscribers = new Subscribers()

  constructor(private readonly now: () => number = Date.now) {}

  /** Something happened; cheap enough for every event of a flood. */
  note(): void {
    this.lastAt = this.now()
    if (this.lastAt - this.toldAt < tellEveryMs) return
    this.toldAt = this.lastAt
    this.subscribers.notify()
  }

  /**
   * A keystroke went to a terminal: activity, and typing that background work can make way for.
   * Enter ends it: a command starts, and what it does (a port it opens) is worth looking at now.
   */
  typed(enter = false): void {
    this.lastKeyAt = enter ? Number.NEGATIVE_INFINITY : this.now()
    if (enter) for (const wake of [...this.waiting]) wake()
    this.note()
  }

  /** How long until typing pauses (no keystroke for `typingPauseMs`), ms; 0 once it has. */
  untilTypingPauses(): number {
    return Math.max(0, this.lastKeyAt + typingPauseMs - this.now())
  }

  /**
   * Resolves once typing pauses, or after `atMostMs`. Whoever polls the sandbox waits for it: a
   * call and its answer occupy the runtime and the page for a few milliseconds, and the echo of a
   * key typed meanwhile waits behind them.
   */
  async pauseInTyping(atMostMs = yieldToTypingMs): Promise<void> {
    const until = this.now() + atMostMs
    for (let wait = this.untilTypingPauses(); wait > 0; wait = this.untilTypingPauses()) {
      const left = until - this.now()
      if (left <= 0) return
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer)
          this.waiting.delete(wake)
          resolve()
        }
        const timer = setTimeout(wake, Math.min(wait, left))
        this.waiting.add(wake)
      })
    }
  }

  /** When the page last saw activity (epoch ms), or -Infinity. */
  get last(): number {
    return this.lastAt
  }

  subscribe = this.subscribers.add
}
