import { Subscribers } from '../common/Subscribers'

/** Followers hear of activity at most this often: a flood of output tells them once a second. */
const tellEveryMs = 1000

/**
 * When the page last saw the sandbox at work: a keystroke to one of its terminals, or output from
 * one. Whoever polls the sandbox can look often while it is busy and seldom while it is quiet, and
 * is told when it wakes up.
 */
export class SandboxActivity {
  private lastAt = Number.NEGATIVE_INFINITY
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

  /** When the page last saw activity (epoch ms), or -Infinity. */
  get last(): number {
    return this.lastAt
  }

  subscribe = this.subscribers.add
}
