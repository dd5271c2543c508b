import { availableParallelism } from 'node:os'

/** Runs work at most `size` at a time, the rest waiting in the order it came. */
export class Slots {
  private running = 0
  private readonly waiting: (() => void)[] = []

  constructor(readonly size: number) {
    if (!(Number.isInteger(size) && size >= 1)) throw new RangeError(`slots must be 1 or more, not ${size}`)
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve))
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
