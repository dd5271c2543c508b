import { availableParallelism } from 'node:os'

/** Runs work at most `size` at a time, the rest waiting in the order it came. */
export class Slots {
  private running = 0
  private readonly waiting: (() => void)[] = []

  constructor(readonly size: number) {
    if (!(Number.isInteger(size) && size >= 1)) throw new RangeError(`slots must be 1 or more, not ${size}`)
  }

  /** Runs `work` when a slot is free; aborting `signal` while it waits takes it out of the line. */
  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    signal?.throwIfAborted()
    if (this.running >= this.size) await this.turn(signal)
    else this.running += 1
    try {
      return await work()
    } finally {
      // The slot passes straight to the next in line, so a newcomer cannot slip in between.
      const next = this.waiting.shift()
      if (next) next()
      else this.running -= 1
    }
  }

  /** Waits until work that ends passes its slot on; rejects with the signal's reason if it aborts first. */
  private turn(signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const leave = () => {
        const at = this.waiting.indexOf(next)
        if (at >= 0) this.waiting.splice(at, 1)
        reject(signal?.reason)
      }
      const next = () => {
        signal?.removeEventListener('abort', leave)
        resolve()
      }
      this.waiting.push(next)
      signal?.addEventListener('abort', leave, { once: true })
    })
  }

  /** How many run now, and how many wait. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length }
  }
}

/**
 * The stack's graders: as many at once as the machine has cores, whoever asks (a student's
 * Submit, the teacher's Regrade all), so a burst of submissions queues instead of taking every
 * core from the class's terminals.
 */
export const graderSlots = new Slots(Math.max(1, availableParallelism()))
