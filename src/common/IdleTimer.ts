/**
 * A timeout that is put off again and again, as an idle timer is by each keystroke. Putting it
 * off only moves its deadline; the one browser timer set finds the deadline moved when it fires,
 * and waits the rest. Clearing a timer and setting another on every keystroke is a scheduled
 * task each time, on the path from keydown to send.
 */
export class IdleTimer {
  /** On the monotonic clock: the wall clock may jump. */
  private deadline = 0
  private timer: ReturnType<typeof setTimeout> | undefined

  constructor(
    private readonly ms: number,
    private readonly fire: () => void,
  ) {}

  /** Fires `ms` after the last call, unless stopped first. */
  restart(): void {
    this.deadline = performance.now() + this.ms
    this.timer ??= setTimeout(this.check, this.ms)
  }

  stop(): void {
    clearTimeout(this.timer)
    this.timer = undefined
  }

  private readonly check = (): void => {
    const left = this.deadline - performance.now()
    if (left > 0) {
      this.timer = setTimeout(this.check, left)
      return
    }
    this.timer = undefined
    this.fire()
  }
}
